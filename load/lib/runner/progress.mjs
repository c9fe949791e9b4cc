/** The runner's progress lines: `[step/total] seconds  what`, with notes between steps. */

/**
 * A number with `d` decimals, or '–'.
 * @param {number | undefined} n
 * @param {number} [d]
 */
export const fmt = (n, d = 1) => (n !== undefined && Number.isFinite(n) ? n.toFixed(d) : '–');

export class Progress {
  /** @param {number} total steps, counted from the run plan */
  constructor(total) {
    this.total = total;
    this.done = 0;
    this.t0 = Date.now();
  }

  /** @param {string} label */
  step(label) {
    this.done++;
    const s = ((Date.now() - this.t0) / 1000).toFixed(0);
    process.stdout.write(`[${String(this.done).padStart(2)}/${this.total}] ${s.padStart(4)}s  ${label}\n`);
  }

  /** @param {string} text */
  note(text) {
    process.stdout.write(`           ${text}\n`);
  }
}
