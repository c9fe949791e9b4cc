/** A relying party's back-channel logout endpoint on loopback, for the back-channel tests. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/** Records each POST and answers as told (a status, or 'hold' to keep it open until `release`). */
export class RpStub {
  readonly received: Array<{ contentType: string; token: string }> = [];
  readonly held: ServerResponse[] = [];
  inFlight = 0;
  maxInFlight = 0;
  /** Answers for the next POSTs, in order; then `otherwise`. */
  answers: Array<number | 'hold'> = [];
  otherwise: number | 'hold' = 200;
  #server: Server;
  #waiters: Array<{ n: number; resolve: () => void }> = [];
  url = '';
  constructor() {
    this.#server = createServer((req, res) => this.#handle(req, res));
  }
  async start(): Promise<this> {
    await new Promise<void>((r) => this.#server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.#server.address() as { port: number }).port}/logout`;
    return this;
  }
  #handle(req: IncomingMessage, res: ServerResponse) {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      this.received.push({
        contentType: req.headers['content-type'] ?? '',
        token: new URLSearchParams(body).get('logout_token') ?? '',
      });
      const answer = this.answers.shift() ?? this.otherwise;
      if (answer === 'hold') {
        this.inFlight++;
        this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
        this.held.push(res);
      } else res.writeHead(answer).end();
      for (const w of this.#waiters.filter((x) => this.received.length >= x.n)) w.resolve();
    });
  }
  /** Resolves once `n` POSTs have arrived (and, when held, are being held). */
  got(n: number): Promise<void> {
    if (this.received.length >= n) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ n, resolve }));
  }
  release(status = 200) {
    for (const res of this.held.splice(0)) {
      this.inFlight--;
      res.writeHead(status).end();
    }
  }
  close() {
    this.release();
    return new Promise((r) => this.#server.close(r));
  }
}
