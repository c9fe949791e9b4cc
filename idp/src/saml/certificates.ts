/**
 * Keys and certificates of the SAML IdP, in two key sets of the key manager (keys/key-sets.ts),
 * so rotation, encryption at rest and multi-instance reloads come for free:
 *
 *   saml  the hot signing key per algorithm (Responses, Assertions, LogoutResponses), published
 *         only as certificates in the SAML metadata, never in /jwks;
 *   root  the root (`saml.rootAlg`, ML-DSA-87 by default), a key of its own used only on the
 *         cold path: it certifies the hot keys and signs the metadata, and signs nothing else.
 *
 * A certificate is issued once per key id and stored in the `SamlCertificate` model, so SPs
 * that pin a certificate keep seeing the same bytes.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { exportJWK, type Jwk, type PrivateKey } from '@pqid/jose';
import { createRootCertificate, issueCertificate, type SigningKey } from '@pqid/xmldsig';
import type { IdpContext } from '../context.ts';

export interface SamlSigner {
  alg: string;
  kid: string;
  /**
   * The key manager's handle: @pqid/xmldsig signs with the key it prepared once (an ML-DSA seed
   * is never expanded per assertion); a private JWK where there is no key manager (sizes.ts).
   * Never logged, never stored outside the key manager.
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

interface CertificateRecord {
  [member: string]: unknown;
  kid: string;
  alg: string;
  pem: string;
  issuerKid?: string;
}

const SALT_ID = '~pairwise-nameid-salt';

export class SamlCertificates {
  readonly #ctx: IdpContext;
  readonly #store;
  /** One issuance per record id even when requests race (within this process). */
  readonly #pending = new Map<string, Promise<string>>();

  constructor(ctx: IdpContext) {
    this.#ctx = ctx;
    this.#store = ctx.storage.adapter('SamlCertificate');
  }

  get rootAlg(): string {
    return this.#ctx.config.saml.rootAlg;
  }

  #cached(id: string, make: () => Promise<CertificateRecord>): Promise<string> {
    let p = this.#pending.get(id);
    if (!p) {
      p = (async () => {
        const hit = (await this.#store.find(id)) as CertificateRecord | undefined;
        if (hit) return hit.pem;
        const rec = await make();
        // Another instance may have made its own meanwhile: the first one stored wins everywhere
        // (one pairwise salt, one certificate per key), never the last.
        if (await this.#store.insertIfAbsent(id, rec)) return rec.pem;
        const winner = (await this.#store.find(id)) as CertificateRecord | undefined;
        return winner?.pem ?? rec.pem;
      })();
      this.#pending.set(id, p);
      p.catch(() => this.#pending.delete(id));
    }
    return p;
  }

  /** The root key (cold path, key set `root`) and its self-signed CA certificate. */
  async root(): Promise<SamlSigner> {
    const key = await this.#ctx.keys.signingKey(this.rootAlg, 'root');
    const kid = key.kid;
    const certificate = await this.#cached(`root:${kid}`, async () => {
      const cert = await createRootCertificate({
        subject: { commonName: `pqid SAML root (${this.rootAlg})`, organization: 'pqid' },
        key,
        validity: { days: this.#ctx.config.saml.rootCertificateDays },
      });
      return { kid, alg: this.rootAlg, pem: cert.pem };
    });
    return { alg: this.rootAlg, kid, key, certificate };
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
