/**
 * The key audit trail: one structured log line per key operation — created, imported, activated,
 * removed (by an operator or at the end of its retention), migrated, re-sealed — and per refused
 * one. Lines name keys by kid, algorithm and set, and KEKs by their public id: never key
 * material, sealed blobs or KEKs. The server writes them through its logger (`audit: "keys"`);
 * the CLI to stderr as JSON lines, so an operator's command leaves the same trail.
 */
import { hostname } from 'node:os';

export type KeyAuditOp =
  /** A new key (first key of an algorithm, or a rotation). */
  | 'key.create'
  /** A key from a KMS/HSM registered with `pqid keys import`. */
  | 'key.import'
  /** A staged (`next`) key made active at once (`rotate --now`). */
  | 'key.activate'
  /** Deleted by an operator (`pqid keys remove`). */
  | 'key.remove'
  /** Deleted when its retention ended (nothing it signed can still be valid). */
  | 'key.purge'
  /** A record written before key sets, rewritten into its sets. */
  | 'key.migrate'
  /** Every sealed key re-sealed under the current KEK (`pqid keys rekey`). */
  | 'keys.rekey'
  /** An operation refused (active key, rotation pending, unknown key, …). */
  | 'key.refused';

export interface KeyAuditEvent {
  op: KeyAuditOp;
  kid?: string;
  alg?: string;
  set?: string;
  /** Where the private key is: `sealed:<kek id>` or `external:<signer>`. */
  custody?: string;
  /** State of the key after the operation (create/import/activate) or before it (remove/purge). */
  status?: string;
  /** Epoch seconds from which the key signs. */
  activateAt?: number;
  /** For `key.refused`: the operation and why. */
  refused?: string;
  reason?: string;
  /** Rekey: how many records were re-sealed, left as they were (already current, external). */
  resealed?: number;
  unchanged?: number;
  /** Rekey: KEK ids it re-sealed from and to. */
  from?: string[];
  to?: string;
  /** Migration: the sets a legacy key now belongs to. */
  sets?: string[];
}

/** Who did it: `server` (a running instance) or `cli` (an operator's command), and where. */
export interface AuditActor {
  actor: 'server' | 'cli';
  host: string;
  pid: number;
}

export const actor = (kind: AuditActor['actor']): AuditActor => ({
  actor: kind,
  host: hostname(),
  pid: process.pid,
});

export type KeyAuditSink = (event: KeyAuditEvent & AuditActor) => void;

/** A one-line message for humans reading the log; the fields carry the detail. */
export function auditMessage(e: KeyAuditEvent): string {
  const key = e.kid ? ` ${e.set ?? '?'}/${e.alg ?? '?'} ${e.kid}` : '';
  switch (e.op) {
    case 'keys.rekey':
      return `keys re-sealed under KEK ${e.to}: ${e.resealed} re-sealed, ${e.unchanged} unchanged`;
    case 'key.refused':
      return `key operation ${e.refused} refused${key}: ${e.reason}`;
    default:
      return `${e.op}${key}`;
  }
}

/** The CLI's sink: JSON lines on stderr, in the shape of the server's log lines. */
export function stderrAuditSink(
  write: (line: string) => void = (l) => process.stderr.write(l),
): KeyAuditSink {
  return (e) =>
    write(`${JSON.stringify({ level: 30, time: Date.now(), audit: 'keys', ...e, msg: auditMessage(e) })}\n`);
}

/** Audit events kept while nothing listens yet (start-up, before the logger exists). */
const AUDIT_BUFFER = 1000;

/** Where a key manager's audit lines go: its sink, or a bounded buffer until one is attached. */
export class AuditTrail {
  readonly #actor: AuditActor['actor'];
  #sink: KeyAuditSink | undefined;
  readonly #buffer: Array<KeyAuditEvent & AuditActor> = [];

  constructor(kind: AuditActor['actor'], sink?: KeyAuditSink) {
    this.#actor = kind;
    this.#sink = sink;
  }

  /** Send lines to `sink`, starting with those recorded before it was attached. */
  to(sink: KeyAuditSink): void {
    this.#sink = sink;
    for (const e of this.#buffer.splice(0)) sink(e);
  }

  emit(event: KeyAuditEvent): void {
    const line = { ...event, ...actor(this.#actor) };
    if (this.#sink) this.#sink(line);
    else if (this.#buffer.length < AUDIT_BUFFER) this.#buffer.push(line);
  }

  /** An operation refused: which, why, and the key it was about. */
  refuse(refused: string, reason: string, rec?: { kid: string; alg?: string; set?: string }): void {
    this.emit({
      op: 'key.refused',
      refused,
      reason,
      ...(rec
        ? { kid: rec.kid, ...(rec.alg ? { alg: rec.alg } : {}), ...(rec.set ? { set: rec.set } : {}) }
        : {}),
    });
  }
}
