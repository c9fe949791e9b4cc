/**
 * Keys and certificates of the SAML IdP, in two key sets of the key manager (policy/key-sets.ts),
 * so rotation, encryption at rest and multi-instance reloads come for free:
 *
 *   saml  the hot signing key per algorithm (Responses, Assertions, LogoutResponses), published
 *         only as certificates in the SAML metadata, never in /jwks;
 *   root  the cold-path root (`keys.placement.cold`: SLH-DSA-SHA2-128s for a new store), a key
 *         of its own: it certifies the hot keys and signs the metadata (and the signed JWKS),
 *         and signs nothing per request.
 *
 * A certificate is issued once per key id and stored in the `SamlCertificate` model, so SPs
 * that pin a certificate keep seeing the same bytes. After the root changes, keys rotated in get
 * certificates from the new root (docs/KEYS.md, "The cold path: an SLH-DSA root"). Keys are
 * `@pqid/jose` handles: the private half stays with its custody (sealed, KMS, HSM).
 */
import { createHmac, randomBytes } from 'node:crypto';
import { exportJWK, type Jwk, type PrivateKey } from '@pqid/jose';
import { createRootCertificate, issueCertificate, type SigningKey } from '@pqid/xmldsig';
import type { IdpContext } from '../context.ts';
import { type Model, model } from '../storage/model.ts';

export interface SamlSigner {
  alg: string;
  kid: string;
  /**
   * The key manager's handle (its custody signs: sealed, KMS or HSM); @pqid/xmldsig signs with
   * the key prepared once (an ML-DSA seed is never expanded per assertion). A private JWK only
   * where there is no key manager (sizes.ts). Never logged, never stored outside the key manager.
   */
  key: SigningKey;
  certificate: string;
}

export interface PublishedCertificate {
  alg: string;
  kid: string;
  status: 'next' | 'active';
  certificate: string;
}

/** A stored certificate (or, under SALT_ID, the pairwise salt in `pem`). */
interface CertificateRecord {
  kid: string;
  alg: string;
  pem: string;
  issuerKid?: string;
}

const SALT_ID = '~pairwise-nameid-salt';

export class SamlCertificates {
  readonly #ctx: IdpContext;
  readonly #store: Model<CertificateRecord>;
  /** One issuance per record id even when requests race (within this process). */
  readonly #pending = new Map<string, Promise<string>>();

  constructor(ctx: IdpContext) {
    this.#ctx = ctx;
    this.#store = model<CertificateRecord>(ctx.storage, 'SamlCertificate');
  }

  /** The cold-path root's algorithm (keys.placement.cold, resolved). */
  get rootAlg(): string {
    return this.#ctx.keys.coldAlg();
  }

  #cached(id: string, make: () => Promise<CertificateRecord>): Promise<string> {
    let p = this.#pending.get(id);
    if (!p) {
      p = (async () => {
        const hit = await this.#store.find(id);
        if (hit) return hit.pem;
        const rec = await make();
        // Another instance may have made its own meanwhile: the first one stored wins everywhere
        // (one pairwise salt, one certificate per key), never the last.
        if (await this.#store.insertIfAbsent(id, rec)) return rec.pem;
        const winner = await this.#store.find(id);
        return winner?.pem ?? rec.pem;
      })();
      this.#pending.set(id, p);
      p.catch(() => this.#pending.delete(id));
    }
    return p;
  }

  /** The root key (cold path, key set `root`) and its self-signed CA certificate. */
  async root(): Promise<SamlSigner> {
    const key = await this.#ctx.keys.signerFor('cold');
    const { alg, kid } = key;
    const certificate = await this.#cached(`root:${kid}`, async () => {
      const cert = await createRootCertificate({
        subject: { commonName: `pqid SAML root (${alg})`, organization: 'pqid' },
        key,
        validity: { days: this.#ctx.config.saml.rootCertificateDays },
      });
      return { kid, alg, pem: cert.pem };
    });
    return { alg, kid, key, certificate };
  }

  /** Certificate for a hot key, issued by the current root the first time it is needed. */
  certificateFor(kid: string, alg: string, publicJwk: Jwk): Promise<string> {
    return this.#cached(kid, async () => {
      const root = await this.root();
      const cert = await issueCertificate({
        subject: { commonName: `pqid SAML signing (${alg})`, organization: 'pqid' },
        subjectPublicKey: publicJwk,
        issuerKey: root.key,
        issuerCertificate: root.certificate,
        validity: { days: this.#ctx.config.saml.leafCertificateDays },
      });
      return { kid, alg, pem: cert.pem, issuerKid: root.kid };
    });
  }

  /** The active SAML key for `alg` with its certificate: what signs a Response or Assertion. */
  async signer(alg: string): Promise<SamlSigner> {
    const key: PrivateKey = await this.#ctx.keys.signingKey(alg, 'saml');
    const certificate = await this.certificateFor(key.kid, alg, exportJWK(key.publicKey));
    return { alg, kid: key.kid, key, certificate };
  }

  /** Next and active SAML keys of these algorithms with certificates: the metadata's KeyDescriptors. */
  async published(algs: readonly string[]): Promise<PublishedCertificate[]> {
    await this.#ctx.keys.ensure(algs, 'saml');
    const jwks = new Map(this.#ctx.keys.publicKeys('saml').keys.map((k) => [String(k.kid), k]));
    const out: PublishedCertificate[] = [];
    for (const info of this.#ctx.keys.list('saml')) {
      if (!algs.includes(info.alg) || (info.status !== 'active' && info.status !== 'next')) continue;
      const jwk = jwks.get(info.kid);
      if (!jwk) continue;
      out.push({
        alg: info.alg,
        kid: info.kid,
        status: info.status,
        certificate: await this.certificateFor(info.kid, info.alg, jwk),
      });
    }
    return out;
  }

  /**
   * Secret salt for persistent (pairwise) NameIDs. Not derived from `sub`: OIDC clients see
   * `sub`, and must not be able to compute the identifier a SAML SP sees.
   */
  async pairwiseSalt(): Promise<Buffer> {
    const pem = await this.#cached(SALT_ID, async () => ({
      kid: SALT_ID,
      alg: 'none',
      pem: randomBytes(32).toString('base64url'),
    }));
    return Buffer.from(pem, 'base64url');
  }
}

/** Stable per (IdP salt, SP, account), unlinkable across SPs. */
export function pairwiseId(salt: Buffer, spEntityId: string, sub: string): string {
  return createHmac('sha256', salt).update(spEntityId).update('\0').update(sub).digest('base64url');
}
