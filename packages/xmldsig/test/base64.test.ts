/**
 * Base64 in SignatureValue, deliberately: XML-DSig values are base64Binary and
 * real signers wrap them (MIME-style lines of 64 or 76 characters, CRLF or LF, indentation), so
 * XML whitespace — space, tab, CR, LF (XML 1.0 §2.3 S) — is accepted anywhere in the value. Nothing
 * else is: not other Unicode spaces (NBSP, BOM, vertical tab, form feed), not base64url,
 * not stray characters, and the padding must be exact. Each case is checked through
 * verifySamlResponse and through node-saml with the integration, which must agree.
 * (DigestValue is inside SignedInfo, so any change to it already breaks the signature.)
 */
import {
  installNodeSamlIntegration,
  type NodeSamlIntegration,
  signXml,
  verifySamlResponse,
  type XmlSignatureAlg,
} from '@pqid/xmldsig';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Signer, samlResponse, signer } from './helpers/fixtures.ts';
import { post, sp } from './helpers/sp.ts';

const AID = '_a0123456789abcdef';
const signers: Partial<Record<XmlSignatureAlg, Signer>> = {};
const signed: Partial<Record<XmlSignatureAlg, string>> = {};
let integration: NodeSamlIntegration;

/** The Response's own SignatureValue: the first in document order. */
const SIGNATURE_VALUE = /<ds:SignatureValue>([^<]*)<\/ds:SignatureValue>/;

beforeAll(async () => {
  for (const alg of ['ML-DSA-65', 'ES256'] as const) {
    const s = await signer(alg);
    signers[alg] = s;
    const key = { key: s.privateJwk, certificate: s.certificate };
    // "base64url characters" rewrites a + or / of the value, so the value needs one. An ES256
    // value is 86 random base64 characters and about one in thirteen has neither (a 3,309-byte
    // ML-DSA-65 value practically always has both): sign again, with a fresh ECDSA nonce, until
    // it has one, rather than let that case fail at random.
    for (let i = 0; i < 64 && !/[+/]/.test(SIGNATURE_VALUE.exec(signed[alg] ?? '')?.[1] ?? ''); i++)
      signed[alg] = signXml(signXml(samlResponse(), { ...key, id: AID }), key);
  }
  integration = installNodeSamlIntegration({
    trustedCertificates: Object.values(signers).map((s) => s.certificate),
  });
});
afterAll(() => integration.uninstall());

/** The Response's own SignatureValue (the first in document order) rewritten by `f`. */
function withSignatureValue(xml: string, f: (b64: string) => string): string {
  return xml.replace(SIGNATURE_VALUE, (_m, v: string) => {
    const out = f(v);
    expect(out).not.toBe(v);
    return `<ds:SignatureValue>${out}</ds:SignatureValue>`;
  });
}

const wrap = (b64: string, width: number, eol: string) =>
  b64.replace(new RegExp(`(.{${width}})`, 'g'), `$1${eol}`);

const ours = (alg: XmlSignatureAlg, xml: string) =>
  verifySamlResponse(xml, {
    trustedCertificates: [(signers[alg] as Signer).certificate],
    allowedAlgorithms: [alg],
  });
const nodeSaml = (alg: XmlSignatureAlg, xml: string) =>
  post(sp({ idpCert: (signers[alg] as Signer).certificate }), xml);

const refusedCode = (f: () => unknown): string | undefined => {
  try {
    f();
  } catch (e) {
    return (e as { code?: string }).code;
  }
  return undefined;
};

describe.each(['ML-DSA-65', 'ES256'] as const)('%s SignatureValue', (alg) => {
  const ACCEPTED: Array<[string, (b: string) => string]> = [
    ['wrapped at 76 columns with LF (MIME)', (b) => wrap(b, 76, '\n')],
    ['wrapped at 64 columns with CRLF', (b) => wrap(b, 64, '\r\n')],
    ['leading and trailing newlines and indentation', (b) => `\n      ${b}\n    `],
    ['a tab and spaces between groups', (b) => `${b.slice(0, 8)}\t${b.slice(8, 12)} ${b.slice(12)}`],
    // @xmldom/xmldom applies XML 1.1 end-of-line handling (§2.11): the parser hands over an LF.
    [
      'a line separator (U+2028), which the parser reads as LF',
      (b) => `${b.slice(0, 76)}\u2028${b.slice(76)}`,
    ],
  ];
  it.each(ACCEPTED)('%s: accepted by both verifiers', async (_n, f) => {
    const xml = withSignatureValue(signed[alg] as string, f);
    expect(ours(alg, xml).nameId).toBe('alice@example.test');
    await expect(nodeSaml(alg, xml)).resolves.toMatchObject({ profile: { nameID: 'alice@example.test' } });
  });

  const REFUSED: Array<[string, (b: string) => string]> = [
    ['a no-break space (U+00A0) between lines', (b) => `${b.slice(0, 76)}\u00a0${b.slice(76)}`],
    ['a byte-order mark (U+FEFF) in front', (b) => `\ufeff${b}`],
    ['a vertical tab', (b) => `${b.slice(0, 20)}\v${b.slice(20)}`],
    ['a form feed', (b) => `${b.slice(0, 20)}\f${b.slice(20)}`],
    ['base64url characters', (b) => b.replace(/[+/]/, (c) => (c === '+' ? '-' : '_'))],
    ['a stray character', (b) => `${b.slice(0, 10)}*${b.slice(10)}`],
    ['an extra "=" at the end', (b) => `${b}=`],
    ['"=" in the middle', (b) => `${b.slice(0, 8)}=${b.slice(8)}`],
  ];
  it.each(REFUSED)(
    '%s: refused as malformed (ERR_XMLDSIG_SIGNATURE_MALFORMED), and by node-saml',
    async (_n, f) => {
      const xml = withSignatureValue(signed[alg] as string, f);
      expect(refusedCode(() => ours(alg, xml))).toBe('ERR_XMLDSIG_SIGNATURE_MALFORMED');
      await expect(nodeSaml(alg, xml)).rejects.toThrow();
    },
  );
});

it('ES256: missing padding is refused (64-byte r‖s ends in "==")', async () => {
  const xml = withSignatureValue(signed.ES256 as string, (b) => {
    expect(b.endsWith('==')).toBe(true);
    return b.slice(0, -2);
  });
  expect(refusedCode(() => ours('ES256', xml))).toBe('ERR_XMLDSIG_SIGNATURE_MALFORMED');
  await expect(nodeSaml('ES256', xml)).rejects.toThrow();
});
