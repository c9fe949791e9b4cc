/**
 * A PKCS#11 key provider (keys.signers.<name>.type = "pkcs11"): keys generated on a PKCS#11 3.2
 * token, non-extractable, signed there through `pkcs11js` (an optional dependency: `npm install
 * pkcs11js`). Algorithms: ML-DSA-44/65/87 (CKM_ML_DSA, pure, empty context), SLH-DSA-SHA2-128s,
 * -SHAKE-128s and -SHA2-128f (CKM_SLH_DSA) and ES256 (CKM_ECDSA_SHA256, raw r‖s): pkcs11-algs.ts.
 * Tested against kryoptic (scripts/pkcs11-token.sh builds it); Debian's SoftHSM2 2.6 has no ML-DSA.
 *
 * PKCS#11 3.2 has no external-μ mechanism and pkcs11js cannot pass a non-empty ML-DSA context,
 * so the signers say `externalMu: false, context: false`: a composite's ML-DSA half (which signs
 * with its label as context) cannot be a PKCS#11 key here, its ES256 half can.
 *
 * A key's reference is its CKA_LABEL. Signing runs on the libuv pool (C_SignAsync), one operation
 * per session, over a small pool of sessions (pkcs11-session.ts). The user PIN comes from the
 * environment variable named in the configuration, never from the file.
 */
import { randomBytes } from 'node:crypto';
import { type DelegatedSigner, type Jwk, SignerUnsupported } from '@pqid/jose';
import { ConfigError, exportToProcessEnv } from '../config/index.ts';
import { CustodyError, type ExternalKeyProvider } from './custody.ts';
import { type AlgSpec, keyPairTemplates, spec } from './pkcs11-algs.ts';
import { CK, type Handle, loadPkcs11js } from './pkcs11-api.ts';
import { type Pkcs11Config, TokenSessions } from './pkcs11-session.ts';

export { PKCS11_ALGS } from './pkcs11-algs.ts';
export { CK, loadPkcs11js, type Pkcs11Api } from './pkcs11-api.ts';

/** The key pair labelled `ref`: its private key's handle and its public key as a JWK. */
function findKeyPair(token: TokenSessions, cfg: Pkcs11Config, ref: string, alg: string, s: AlgSpec) {
  return token.with((session) => {
    const priv = token.find(session, CK.CKO_PRIVATE_KEY, ref);
    const pub = token.find(session, CK.CKO_PUBLIC_KEY, ref);
    if (!priv || !pub)
      throw new CustodyError(
        'ERR_KEY_CUSTODY',
        `no key pair labelled ${JSON.stringify(ref)} on token ${cfg.token}`,
      );
    const attr = s.ecParams ? CK.CKA_EC_POINT : CK.CKA_VALUE;
    const [got] = token.p11.C_GetAttributeValue(session, pub, [{ type: attr }]);
    if (!Buffer.isBuffer(got?.value))
      throw new CustodyError(
        'ERR_KEY_CUSTODY',
        `the token returned no public key for ${JSON.stringify(ref)}`,
      );
    return { priv, publicJwk: s.publicJwk(got.value, alg) };
  });
}

/** The signer of a key on the token: pure signatures only (no μ, no context). */
function tokenSigner(
  token: TokenSessions,
  name: string,
  key: Handle,
  s: AlgSpec,
  pub: { alg: string; publicJwk: Jwk },
): DelegatedSigner {
  return {
    alg: pub.alg,
    publicJwk: pub.publicJwk,
    capabilities: {
      message: true,
      context: false,
      externalMu: false,
      ...(s.ecParams ? { ecdsaEncoding: 'raw' as const } : {}),
    },
    async sign(req) {
      if (req.kind !== 'message') throw new SignerUnsupported('PKCS#11 3.2 has no external μ mechanism');
      if (req.context.length) throw new SignerUnsupported('this PKCS#11 signer takes no context string');
      if (token.closed) throw new CustodyError('ERR_KEY_CUSTODY', `the PKCS#11 signer ${name} is closed`);
      return token.with(async (session) => {
        token.p11.C_SignInit(session, { mechanism: s.signMechanism }, key);
        const out = Buffer.alloc(s.signatureBytes);
        return new Uint8Array(await token.p11.C_SignAsync(session, Buffer.from(req.message), out));
      });
    },
  };
}

/** Opens the token named in `cfg` (its PIN from `env`) as an external key provider. */
export async function openPkcs11Provider(
  name: string,
  cfg: Pkcs11Config,
  env: Record<string, string | undefined>,
): Promise<ExternalKeyProvider> {
  const pkcs11js = await loadPkcs11js();
  const pin = env[cfg.pinEnv];
  if (!pin) throw new ConfigError(`keys.signers.${name}: the PIN variable ${cfg.pinEnv} is not set`);
  // The module reads its own configuration from the environment when it initialises.
  exportToProcessEnv(cfg.env ?? {});
  const token = new TokenSessions(pkcs11js, name, cfg, pin);
  return {
    async signer(ref: string, alg: string): Promise<DelegatedSigner> {
      const s = spec(alg);
      const { priv, publicJwk } = await findKeyPair(token, cfg, ref, alg, s);
      return tokenSigner(token, name, priv, s, { alg, publicJwk });
    },

    async generate(alg: string): Promise<string> {
      const s = spec(alg);
      const label = `pqid-${alg}-${randomBytes(8).toString('hex')}`;
      const [publicTemplate, privateTemplate] = keyPairTemplates(s, label, randomBytes(16));
      await token.with((session) =>
        token.p11.C_GenerateKeyPair(session, { mechanism: s.genMechanism }, publicTemplate, privateTemplate),
      );
      return label;
    },

    async close() {
      token.close();
    },
  };
}
