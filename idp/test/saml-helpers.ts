/** SAML test helpers: a hand-built SP (AuthnRequest/LogoutRequest, Redirect and POST) over inject. */
import { deflateRawSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { cookieHeader } from './helpers.ts';

export const SP_ENTITY = 'https://sp.example.test/metadata';
export const SP_ACS = 'https://sp.example.test/acs';
export const SP_SLO = 'https://sp.example.test/slo';
export const IDP_SSO = 'http://localhost:3000/saml/sso';

export const isoNow = (offsetMs = 0) => new Date(Date.now() + offsetMs).toISOString();
let n = 0;
export const reqId = () => `_req${Date.now()}${n++}`;

export function authnRequestXml(
  o: {
    id?: string;
    issuer?: string;
    acs?: string;
    format?: string;
    forceAuthn?: boolean;
    isPassive?: boolean;
    instant?: string;
    /** Default the IdP's SSO URL; null leaves Destination out. */
    destination?: string | null;
    /** Extra content at the end of the request (shape tests). */
    padding?: string;
    /** RequestedAuthnContext: class references, and Comparison (absent: the attribute is left out). */
    authnContext?: { classRefs: string[]; comparison?: string };
  } = {},
): string {
  const acs = o.acs === undefined ? SP_ACS : o.acs;
  const destination = o.destination === undefined ? IDP_SSO : o.destination;
  const rac = o.authnContext
    ? `<samlp:RequestedAuthnContext${o.authnContext.comparison ? ` Comparison="${o.authnContext.comparison}"` : ''}>${o.authnContext.classRefs
        .map((r) => `<saml:AuthnContextClassRef>${r}</saml:AuthnContextClassRef>`)
        .join('')}</samlp:RequestedAuthnContext>`
    : '';
  return (
    `<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${o.id ?? reqId()}" Version="2.0" IssueInstant="${o.instant ?? isoNow()}"${destination === null ? '' : ` Destination="${destination}"`} ProtocolBinding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"` +
    `${acs ? ` AssertionConsumerServiceURL="${acs}"` : ''}${o.forceAuthn ? ' ForceAuthn="true"' : ''}${o.isPassive ? ' IsPassive="true"' : ''}>` +
    `<saml:Issuer>${o.issuer ?? SP_ENTITY}</saml:Issuer>` +
    (o.format ? `<samlp:NameIDPolicy Format="${o.format}" AllowCreate="true"/>` : '') +
    rac +
    (o.padding ?? '') +
    '</samlp:AuthnRequest>'
  );
}

export function logoutRequestXml(o: {
  id?: string;
  nameId: string;
  format: string;
  issuer?: string;
  /** A samlp:SessionIndex, as SPs send the one from the AuthnStatement they received. */
  sessionIndex?: string;
  padding?: string;
}): string {
  return (
    `<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${o.id ?? reqId()}" Version="2.0" IssueInstant="${isoNow()}" Destination="http://localhost:3000/saml/slo">` +
    `<saml:Issuer>${o.issuer ?? SP_ENTITY}</saml:Issuer><saml:NameID Format="${o.format}">${o.nameId}</saml:NameID>` +
    (o.sessionIndex !== undefined ? `<samlp:SessionIndex>${o.sessionIndex}</samlp:SessionIndex>` : '') +
    `${o.padding ?? ''}</samlp:LogoutRequest>`
  );
}

export const redirectParam = (xml: string) => deflateRawSync(Buffer.from(xml)).toString('base64');

/** The hidden fields of an auto-submitting form page. */
export function formFields(html: string): { action: string; fields: Record<string, string> } {
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1] ?? '';
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    fields[m[1] as string] = (m[2] as string)
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  return { action: action.replace(/&amp;/g, '&'), fields };
}

/** Follow /saml/sso → login page → form post → /saml/continue; returns the final page and the session cookie. */
export async function samlLogin(
  app: FastifyInstance,
  url: string,
  creds = { username: 'demo', password: 'demo' },
): Promise<{ body: string; status: number; session: string }> {
  const r1 = await app.inject({ method: 'GET', url });
  if (r1.statusCode !== 303) return { body: r1.body, status: r1.statusCode, session: '' };
  const loginUrl = r1.headers.location as string;
  const cookie = cookieHeader(r1.cookies);
  const r2 = await app.inject({ method: 'GET', url: loginUrl, headers: { cookie } });
  const csrf = /name="csrf" value="([^"]+)"/.exec(r2.body)?.[1] as string;
  const r3 = await app.inject({
    method: 'POST',
    url: `${loginUrl}/login`,
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ csrf, ...creds }).toString(),
  });
  if (r3.statusCode !== 303) throw new Error(`login post: ${r3.statusCode}`);
  const session = `pqid_session=${r3.cookies.find((c) => c.name === 'pqid_session')?.value}`;
  const r4 = await app.inject({
    method: 'GET',
    url: r3.headers.location as string,
    headers: { cookie: session },
  });
  return { body: r4.body, status: r4.statusCode, session };
}
