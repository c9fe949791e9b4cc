/**
 * Start-up helpers the examples share. An example started before its IdP (two terminals, a
 * docker compose file, a CI job) should wait for it and say so, not die with
 * `TypeError: fetch failed`; and whatever stops it should end in one readable line.
 */

/** Network failures that mean "not up yet" (Node's and undici's codes), as a reader says them. */
const NOT_UP = new Map([
  ['ECONNREFUSED', 'connection refused'],
  ['ECONNRESET', 'connection reset'],
  ['EPIPE', 'connection reset'],
  ['ENOTFOUND', 'host not found'],
  ['EAI_AGAIN', 'host not found yet'],
  ['ETIMEDOUT', 'timed out'],
  ['EHOSTUNREACH', 'host unreachable'],
  ['ENETUNREACH', 'network unreachable'],
  ['UND_ERR_CONNECT_TIMEOUT', 'timed out'],
  ['UND_ERR_SOCKET', 'connection closed'],
]);
/** Answers of a proxy or a server still starting behind one: worth asking again. */
const BUSY = new Set([502, 503, 504]);

/**
 * Why `error` means the IdP is not (yet) answering, or undefined when it is another failure
 * (a wrong issuer, a 404, a port in use) that waiting will not cure. Looks through the `cause`
 * chain, where fetch and openid-client put the socket error or the HTTP response.
 * @param {unknown} error
 * @returns {string | undefined}
 */
export function notAnswering(error) {
  for (let e = /** @type {any} */ (error), depth = 0; e && depth < 5; e = e.cause, depth++) {
    const reason = typeof e.code === 'string' ? NOT_UP.get(e.code) : undefined;
    if (reason) return reason;
    if (typeof e.status === 'number' && BUSY.has(e.status)) return `HTTP ${e.status}`;
  }
  return undefined;
}

/**
 * GET a URL and return the response, or throw an Error whose `status` says what came back
 * (so that notAnswering() can tell a starting server from a wrong URL).
 * @param {string | URL} url
 */
export async function fetchOk(url) {
  const res = await fetch(url, { redirect: 'error' });
  if (!res.ok) throw Object.assign(new Error(`${url} answered HTTP ${res.status}`), { status: res.status });
  return res;
}

/**
 * Runs `start` until it succeeds, while its failures mean the IdP is not answering: one line per
 * attempt, for up to `seconds`. Any other failure, and the last one, is thrown with a message
 * that says what to do.
 * @template T
 * @param {() => Promise<T>} start    everything that needs the IdP (discovery, metadata)
 * @param {object} o
 * @param {string} o.idp              the IdP's URL, for the messages
 * @param {string} o.label            who is waiting, e.g. "example RP"
 * @param {string} o.hint             how to start the IdP, e.g. "start it with `npm start`"
 * @param {string} o.variable         the environment variable naming the IdP
 * @param {number} [o.seconds]        how long to keep trying (default 60)
 * @param {number} [o.every]          seconds between attempts (default 2)
 * @param {(line: string) => void} [o.log]
 * @returns {Promise<T>}
 */
export async function waitForIdp(start, o) {
  const seconds = o.seconds ?? 60;
  const every = o.every ?? 2;
  const log = o.log ?? ((line) => console.error(line));
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    try {
      return await start();
    } catch (e) {
      const reason = notAnswering(e);
      if (!reason) throw e;
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(
          `the IdP at ${o.idp} did not answer within ${seconds} s (${reason}): ${o.hint}, or set ${o.variable} to where it runs`,
        );
      log(
        `${o.label}: waiting for the IdP at ${o.idp} (${reason}) — ${o.hint}; ${Math.ceil(left / 1000)} s left`,
      );
      await new Promise((r) => setTimeout(r, Math.min(every * 1000, left)));
    }
  }
}

/**
 * For an example's entry point: print what went wrong as one line (no stack trace: these are
 * the messages a person starting an example needs) and exit 1.
 * @param {string} label         e.g. "example RP"
 * @param {string} [portVariable] the variable that moves the example to another port
 * @returns {(error: unknown) => never}
 */
export const exitWith = (label, portVariable) => (error) => {
  const e = /** @type {any} */ (error);
  const message =
    e?.code === 'EADDRINUSE' && portVariable
      ? `port ${e.port} is already in use: stop what listens there, or set ${portVariable} to another port`
      : e instanceof Error
        ? e.message
        : String(e);
  console.error(`${label}: ${message}`);
  process.exit(1);
};

/**
 * A whole-number setting from the environment (a port, seconds to wait), or `fallback` when it is
 * unset or empty; anything else ends the example with one line naming the variable.
 * @param {string} label the example, as its messages start
 * @param {string} variable @param {string | undefined} value @param {number} fallback
 * @param {number} max
 * @returns {number}
 */
export function wholeNumber(label, variable, value, fallback, max) {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n > max)
    exitWith(label)(
      new Error(`${variable} must be a whole number from 0 to ${max}, not ${JSON.stringify(value)}`),
    );
  return n;
}
