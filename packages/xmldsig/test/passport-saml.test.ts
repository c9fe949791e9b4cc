/**
 * The SP the way an application writes it: an unmodified @node-saml/passport-saml Strategy. The
 * only pqid line is installNodeSamlIntegration() with the same IdP certificate as `idpCert`.
 * Passport's success/fail/error hooks are replaced on the strategy instance, as passport does
 * per request, so no express app is needed.
 */
import { Strategy, type VerifyWithoutRequest } from '@node-saml/passport-saml';
import { installNodeSamlIntegration, signXml } from '@pqid/xmldsig';
import { describe, expect, it } from 'vitest';
import { ACS, IDP, ML_DSA_ALGS, SP, samlResponse, signer } from './helpers/fixtures.ts';

type Outcome = { kind: 'success'; user: unknown } | { kind: 'fail' | 'error'; detail: unknown };

function authenticate(strategy: Strategy, samlResponseXml: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const s = strategy as unknown as Record<string, (...a: unknown[]) => void>;
    s.success = (user) => resolve({ kind: 'success', user });
    s.fail = (detail) => resolve({ kind: 'fail', detail });
    s.error = (detail) => resolve({ kind: 'error', detail });
    s.redirect = () => resolve({ kind: 'error', detail: 'unexpected redirect' });
    const req = {
      body: { SAMLResponse: Buffer.from(samlResponseXml).toString('base64') },
      query: {},
      method: 'POST',
    };
    strategy.authenticate(req as never, {});
  });
}

const verify: VerifyWithoutRequest = (profile, done) => done(null, { id: profile?.nameID });

function strategy(idpCert: string) {
  return new Strategy(
    {
      callbackUrl: ACS,
      entryPoint: `${IDP}/sso`,
      issuer: SP,
      audience: SP,
      idpIssuer: IDP,
      idpCert,
      wantAssertionsSigned: true,
    },
    verify,
    verify,
  );
}

describe.each(ML_DSA_ALGS)('passport-saml Strategy, %s', (alg) => {
  it('logs the user in with the integration, and refuses without it', async () => {
    const idp = await signer(alg);
    const sign = (xml: string, id?: string) =>
      signXml(xml, { key: idp.privateJwk, certificate: idp.certificate, ...(id ? { id } : {}) });
    const response = sign(sign(samlResponse(), '_a0123456789abcdef'));

    const without = await authenticate(strategy(idp.certificate), response);
    expect(without.kind).not.toBe('success');

    const integration = installNodeSamlIntegration({ trustedCertificates: [idp.certificate] });
    try {
      const withIt = await authenticate(strategy(idp.certificate), response);
      expect(withIt).toEqual({ kind: 'success', user: { id: 'alice@example.test' } });
    } finally {
      integration.uninstall();
    }
  });
});
