/**
 * The server's log stream at start-up. Key audit lines, the listening line and any start-up
 * warning are written before the banner could be; holding them until the banner is out keeps
 * the banner one block for the person reading the terminal. Afterwards the lines go where
 * fastify's logger writes by default: pino's asynchronous stdout destination.
 */
import pino from 'pino';

/** Lines held at most; past this they are written at once (late banner rather than lost lines). */
const HELD_LINES = 1000;

export class HeldLog {
  #held: string[] | undefined = [];
  readonly #out = pino.destination({ dest: 1, sync: false });

  write(line: string): void {
    if (this.#held && this.#held.length < HELD_LINES) this.#held.push(line);
    else this.#out.write(line);
  }

  /** Writes `first` (the banner), then the lines held so far; later lines go straight out. */
  release(first = ''): void {
    const text = first + (this.#held ?? []).join('');
    this.#held = undefined;
    if (text) this.#out.write(text);
  }
}
