/**
 * DPoP (RFC 9449) at this provider's endpoints. @pqid/jose checks what a proof says on its own;
 * here are the parts that need state: `jti` replay, remembered in the shared store until the
 * proof's `iat` window closes (atomic insert-if-absent, so one proof is accepted once across all
 * instances), and server nonces. Nonces are stateless: an HMAC of the current time window under
 * a key every instance derives from the KEK, so any instance accepts another's nonce with no
 * storage round trip.
 *
 * Requests without a `DPoP` header cost one property lookup here.
 */
import { createHmac, hkdfSync } from 'node:crypto';
import { type DpopProof, DpopProofInvalid, registry, verifyDpopProof } from '@pqid/jose';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IdpContext } from '../../context.ts';
import { safeEqual, tokenId } from '../../crypto/secrets.ts';
import { model } from '../../storage/model.ts';
import { challengeText, OAuthError } from './errors.ts';

/** A seen proof (key thumbprint + `jti`): the record is only a marker. */
type SeenProof = Record<string, never>;

/** Where the proof arrived: errors differ (RFC 9449 §5 body error vs §7.1 WWW-Authenticate). */
export type DpopEndpoint = 'token' | 'resource';

export interface DpopCheck {
  /** The request URI the proof must name (`htu`): the endpoint's public URL. */
  htu: string;
  /** At a resource: the access token presented (its hash must be `ath`). */
  accessToken?: string;
  endpoint: DpopEndpoint;
}

/**
 * Algorithms accepted for proofs (`dpop_signing_alg_values_supported`): every registry
 * algorithm usable here except SLH-DSA. A proof is signed per request; SLH-DSA is for the cold
 * path — its proofs would be 10.6 KB (128s, hundreds of ms to sign) to 22.8 KB (128f), past
 * `dpop.maxProofBytes`.
 */
export function dpopAlgorithms(): string[] {
  return registry()
    .filter((e) => !e.unavailable() && e.family !== 'slh-dsa')
    .map((e) => e.alg);
}

/** The key the DPoP nonce HMAC uses: derived from the KEK, so every instance agrees. */
export function dpopNonceKey(kek: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', kek, Buffer.alloc(0), 'pqid dpop nonce v1', 32));
}

export class Dpop {
  readonly #ctx: IdpContext;
  readonly #key: Buffer;
  /** Algorithms accepted for proofs (see dpopAlgorithms). */
  readonly algorithms: readonly string[] = dpopAlgorithms();

  constructor(ctx: IdpContext, nonceKey: Buffer) {
    this.#ctx = ctx;
    this.#key = nonceKey;
  }

  get #cfg() {
    return this.#ctx.config.dpop;
  }

  #nonceFor(window: number): string {
    return createHmac('sha256', this.#key)
      .update(String(window))
      .digest()
      .subarray(0, 16)
      .toString('base64url');
  }

  #window(): number {
    return Math.floor(Date.now() / 1000 / this.#cfg.nonceLifetime);
  }

  /** The nonce to hand out now. */
  nonce(): string {
    return this.#nonceFor(this.#window());
  }

  #nonceValid(nonce: string): boolean {
    const w = this.#window();
    return safeEqual(nonce, this.#nonceFor(w)) || safeEqual(nonce, this.#nonceFor(w - 1));
  }

  /** `DPoP-Nonce` on every answer to a DPoP request while nonces are required (RFC 9449 §8.2). */
  addNonce(reply: FastifyReply): void {
    if (this.#cfg.requireNonce) reply.header('dpop-nonce', this.nonce());
  }

  #error(endpoint: DpopEndpoint, error: 'invalid_dpop_proof' | 'use_dpop_nonce', description: string) {
    const headers: Record<string, string> = {};
    if (this.#cfg.requireNonce) headers['dpop-nonce'] = this.nonce();
    if (endpoint === 'resource') {
      headers['www-authenticate'] =
        `DPoP error="${error}", error_description="${challengeText(description)}", algs="${this.algorithms.join(' ')}"`;
      return new OAuthError(error, description, 401, headers);
    }
    return new OAuthError(error, description, 400, headers);
  }

  /**
   * The verified proof of this request, or undefined when it carries no `DPoP` header. A proof
   * that fails any check is an OAuthError (invalid_dpop_proof, or use_dpop_nonce).
   */
  async check(req: FastifyRequest, check: DpopCheck): Promise<DpopProof | undefined> {
    if (req.headers.dpop === undefined) return undefined;
    // Node joins repeated unknown headers with ", ": count them in the raw list instead.
    const raw = req.raw.rawHeaders;
    const values: string[] = [];
    for (let i = 0; i < raw.length; i += 2)
      if ((raw[i] as string).toLowerCase() === 'dpop') values.push(raw[i + 1] as string);
    if (values.length !== 1)
      throw this.#error(check.endpoint, 'invalid_dpop_proof', 'send exactly one DPoP header');
    const cfg = this.#cfg;
    let proof: DpopProof;
    try {
      proof = await verifyDpopProof(values[0], {
        htm: req.method,
        htu: check.htu,
        algorithms: this.algorithms,
        maxAge: cfg.iatWindow,
        clockTolerance: cfg.iatWindow,
        maxProofBytes: cfg.maxProofBytes,
        ...(check.accessToken !== undefined ? { accessToken: check.accessToken } : {}),
      });
    } catch (e) {
      if (!(e instanceof DpopProofInvalid)) throw e;
      const hint = e.reason === 'size' ? ' (dpop.maxProofBytes)' : '';
      req.log.info({ reason: e.reason }, 'refused a DPoP proof');
      throw this.#error(check.endpoint, 'invalid_dpop_proof', `${e.message}${hint}`);
    }
    if (cfg.requireNonce) {
      const nonce = proof.claims.nonce;
      if (nonce === undefined || !this.#nonceValid(nonce))
        throw this.#error(
          check.endpoint,
          'use_dpop_nonce',
          nonce === undefined ? 'a DPoP nonce is required' : 'the DPoP nonce is stale',
        );
    }
    // Remembered only while the proof could still be accepted: iat + window (+1 for rounding).
    const ttl = Math.max(1, proof.claims.iat + cfg.iatWindow - Math.floor(Date.now() / 1000) + 1);
    const fresh = await model<SeenProof>(this.#ctx.storage, 'DPoPProof').insertIfAbsent(
      tokenId(`${proof.jkt}\0${proof.claims.jti}`),
      {},
      ttl,
    );
    if (!fresh) throw this.#error(check.endpoint, 'invalid_dpop_proof', 'the DPoP proof was already used');
    return proof;
  }
}
