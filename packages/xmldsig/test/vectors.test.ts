/**
 * The SAML/XML-DSig samples in test/vectors/saml-xml (test/vectors/PROVENANCE.md §8). They are signed
 * with RSA by certificates that were not copied, so nothing here can verify: these tests only use
 * them where the outcome does not depend on the certificate — structural refusals with a specific
 * error code, and "every sample is refused with a typed error, never a crash" for the rest. Any
 * trusted certificate would do; we pass one of ours.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PqidError } from '@pqid/jose';
import { verifySamlResponse, verifyXml } from '@pqid/xmldsig';
import { beforeAll, describe, expect, it } from 'vitest';
import { signer } from './helpers/fixtures.ts';

// Same convention as packages/jose/test/helpers/vectors.ts: PQID_VECTORS, else <repo>/test/vectors.
const DIR = join(
  process.env.PQID_VECTORS ?? fileURLToPath(new URL('../../../test/vectors/', import.meta.url)),
  'saml-xml',
);
const read = (p: string) => readFileSync(join(DIR, p), 'utf8');
let cert: string;
beforeAll(async () => {
  cert = (await signer('ML-DSA-65')).certificate;
});
// The samples use RSA; allowing RSA-SHA256 makes the algorithm check pass so the structure is what decides.
const opts = () => ({ trustedCertificates: [cert], allowedAlgorithms: ['RS256', 'ML-DSA-65'] as const });

describe('xml-crypto samples: structural refusals', () => {
  it.each([
    ['saml_multiple_signed_info_nodes.xml', 'OUR_CUSTOM_ID', 'ERR_XMLDSIG_SIGNATURE_MALFORMED'],
    // xml-crypto ignores the wrapped SignedInfo and verifies the real one; we refuse the Signature outright.
    ['saml_wrapped_signed_info_node.xml', 'OUR_CUSTOM_ID', 'ERR_XMLDSIG_SIGNATURE_MALFORMED'],
    [
      'invalid_saml_no_signed_info.xml',
      'pfx66496e6c-3c29-230d-6d47-b245434b872d',
      'ERR_XMLDSIG_SIGNATURE_MALFORMED',
    ],
    [
      'valid_saml_signature_wrapping.xml',
      'pfx66496e6c-3c29-230d-6d47-b245434b872d',
      'ERR_XMLDSIG_REFERENCE_MISMATCH',
    ],
    ['id_with_quotes.xml', 'pfx66496e6c-3c29-230d-6d47-b245434b872d', 'ERR_XMLDSIG_REFERENCE_MISMATCH'],
    [
      'valid_saml_withcomments.xml',
      'pfx66496e6c-3c29-230d-6d47-b245434b872d',
      /ERR_XMLDSIG_(SIGNATURE_MALFORMED|ALG_NOT_ALLOWED)/,
    ],
    // SHA-1 (its DigestMethod, and RSA-SHA1) is never accepted, whatever the certificate.
    ['valid_saml.xml', 'pfx66496e6c-3c29-230d-6d47-b245434b872d', 'ERR_XMLDSIG_SIGNATURE_MALFORMED'],
  ])('%s → %s', (file, id, code) => {
    expect(() => verifyXml(read(`xml-crypto/${file}`), { ...opts(), expectedReferenceId: id })).toThrow(
      expect.objectContaining({ code: expect.stringMatching(code) }),
    );
  });
});

describe('node-saml samples', () => {
  it('multiple root elements → ERR_XMLDSIG_XML_INVALID', () => {
    const xml = read('node-saml/signatures/invalid/response.root-signed.multiple-root-elements.xml');
    expect(() => verifySamlResponse(xml, opts())).toThrow(
      expect.objectContaining({ code: 'ERR_XMLDSIG_XML_INVALID' }),
    );
  });

  const files = ['valid', 'invalid'].flatMap((d) =>
    readdirSync(join(DIR, 'node-saml/signatures', d)).map((f) => `node-saml/signatures/${d}/${f}`),
  );
  it.each(files)('%s is refused with a typed error (its certificate is not trusted here)', (f) => {
    for (const policy of [
      { wantResponseSigned: true, wantAssertionSigned: true },
      { wantResponseSigned: false, wantAssertionSigned: true },
      { wantResponseSigned: true, wantAssertionSigned: false },
    ]) {
      let err: unknown;
      try {
        verifySamlResponse(read(f), { ...opts(), ...policy });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(PqidError);
    }
  });
});
