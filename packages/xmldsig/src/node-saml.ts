/**
 * Making an unmodified @node-saml/node-saml (and so passport-saml) SP accept ML-DSA and
 * ECDSA-SHA256 signatures from the IdP certificates it is configured with — without a fork.
 *
 * How node-saml 5 verifies: `getVerifiedXml()` creates `new xmlCrypto.SignedXml()` per trusted
 * `idpCert`, sets `publicCert` to that PEM, `loadSignature()`s and `checkSignature()`s, and uses
 * only `getSignedReferences()` afterwards. It never exposes the SignedXml instance, and xml-crypto
 * keeps the algorithm table per instance (`SignedXml#SignatureAlgorithms`, filled in the
 * constructor), so there is no option to pass algorithms through. The one seam on that path is
 * the method every instance uses to turn a SignatureMethod URI into an algorithm:
 * `SignedXml.prototype.findSignatureAlgorithm(uri)` (TypeScript-private, a plain prototype
 * method at runtime). `install()` wraps it:
 *
 *   - the instance's own table is consulted first, unchanged, so RSA and everything node-saml
 *     or other code registered behaves exactly as before;
 *   - only for URIs the instance does not know (ours: ML-DSA-44/65/87, ECDSA-SHA256) does it
 *     return our algorithm, and that algorithm verifies only with a key whose certificate is in
 *     the `trustedCertificates` given to install() — on top of node-saml's own `idpCert` check,
 *     so a certificate from KeyInfo or from other code using xml-crypto is never enough;
 *   - the returned algorithms verify only (no signing through the patched path).
 *
 * `uninstall()` restores the original method when the last installation is removed. The patch is
 * process-wide on the xml-crypto copy node-saml loads (resolved from @node-saml/node-saml's own
 * location, or passed explicitly), which is why it is scoped by certificate.
 */
import { createRequire } from 'node:module';
import { InvalidArgument } from '@pqid/jose';
import { SignedXml as OwnSignedXml } from 'xml-crypto';
import { algorithmFor, type SignatureAlgorithmClass } from './algorithms/signature-algorithms.ts';
import { SIGNATURE_URIS, type XmlSignatureAlg } from './uris.ts';
import { parseCertificate } from './x509/parse.ts';

export interface NodeSamlIntegrationOptions {
  /** The IdP certificates (PEM, base64 or DER) whose ML-DSA/ECDSA signatures the SP may accept. */
  trustedCertificates: readonly (string | Uint8Array)[];
  /** Which of our algorithms to enable. Default: ML-DSA-44, ML-DSA-65, ML-DSA-87, ES256. */
  algorithms?: readonly Exclude<XmlSignatureAlg, 'RS256'>[];
  /**
   * The xml-crypto `SignedXml` class node-saml uses. Default: the copy `require('xml-crypto')`
   * resolves to from @node-saml/node-saml's directory (falling back to this package's copy).
   */
  signedXmlClass?: unknown;
}

export interface NodeSamlIntegration {
  uninstall(): void;
}

type FindSignatureAlgorithm = (
  this: { SignatureAlgorithms: Record<string, unknown> },
  name: string,
) => unknown;
interface Proto {
  findSignatureAlgorithm?: FindSignatureAlgorithm;
}

interface Installation {
  algorithms: Map<string, SignatureAlgorithmClass>;
}

interface PatchState {
  original: FindSignatureAlgorithm;
  installations: Set<Installation>;
}

const PATCHES = new WeakMap<Proto, PatchState>();

export function installNodeSamlIntegration(opts: NodeSamlIntegrationOptions): NodeSamlIntegration {
  const certs = opts.trustedCertificates.map((c) => parseCertificate(c));
  if (certs.length === 0)
    throw new InvalidArgument('installNodeSamlIntegration needs at least one trusted certificate');
  const algs = opts.algorithms ?? (['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87', 'ES256'] as const);
  if (algs.some((a) => (a as string) === 'RS256'))
    throw new InvalidArgument('RSA-SHA256 is built into xml-crypto; the integration does not replace it');
  const trustedKeys = new Set(certs.map((c) => Buffer.from(c.publicKey.spki).toString('base64')));
  const acceptKey = (pk: { spki: Uint8Array }) => trustedKeys.has(Buffer.from(pk.spki).toString('base64'));
  const installation: Installation = {
    algorithms: new Map(
      algs.map((a) => [SIGNATURE_URIS[a], algorithmFor(a, { acceptKey, verifyOnly: true })]),
    ),
  };

  const proto = resolveSignedXml(opts.signedXmlClass).prototype as Proto;
  let state = PATCHES.get(proto);
  if (!state) {
    const original = proto.findSignatureAlgorithm;
    if (typeof original !== 'function')
      throw new InvalidArgument(
        'this xml-crypto has no SignedXml.prototype.findSignatureAlgorithm (unsupported version)',
      );
    const installations = new Set<Installation>();
    state = { original, installations };
    proto.findSignatureAlgorithm = function findSignatureAlgorithm(name) {
      if (typeof name === 'string' && !Object.hasOwn(this.SignatureAlgorithms ?? {}, name)) {
        const candidates = [...installations].flatMap((i) => i.algorithms.get(name) ?? []);
        if (candidates.length > 0) return new (anyOf(candidates))();
      }
      return original.call(this, name);
    };
    PATCHES.set(proto, state);
  }
  state.installations.add(installation);

  let removed = false;
  return {
    uninstall() {
      if (removed) return;
      removed = true;
      const s = PATCHES.get(proto);
      if (!s) return;
      s.installations.delete(installation);
      if (s.installations.size === 0) {
        proto.findSignatureAlgorithm = s.original;
        PATCHES.delete(proto);
      }
    },
  };
}

/** Several installations for the same URI: the signature verifies if any of them accepts it. */
function anyOf(classes: SignatureAlgorithmClass[]): SignatureAlgorithmClass {
  const [first] = classes;
  if (classes.length === 1 && first) return first;
  return class {
    readonly impls = classes.map((C) => new C());
    getAlgorithmName() {
      return this.impls[0]?.getAlgorithmName() ?? '';
    }
    getSignature(): string {
      throw new Error('registered for verification only');
    }
    verifySignature(material: string, key: never, value: string): boolean {
      return this.impls.some((i) => i.verifySignature(material, key, value) === true);
    }
  } as unknown as SignatureAlgorithmClass;
}

function resolveSignedXml(explicit: unknown): { prototype: object } {
  if (explicit !== undefined) {
    if (typeof explicit !== 'function')
      throw new InvalidArgument('signedXmlClass must be xml-crypto’s SignedXml class');
    return explicit as { prototype: object };
  }
  try {
    const req = createRequire(import.meta.url);
    const fromNodeSaml = createRequire(req.resolve('@node-saml/node-saml'));
    return (fromNodeSaml('xml-crypto') as { SignedXml: { prototype: object } }).SignedXml;
  } catch {
    return OwnSignedXml;
  }
}
