/**
 * The page at the issuer URL: what this server is, for a person who opened it, and where the
 * machine-readable documents are, for a developer. A client asking for JSON gets the same links
 * as JSON rather than a page.
 */
import { escapeHtml, layout } from './html.ts';

export interface LandingLinks {
  issuer: string;
  discovery: string;
  jwks: string;
  /** Present when SAML is on. */
  samlMetadata?: string;
  /** Present when the signed JWKS is published. */
  signedJwks?: string;
  health: string;
  account: string;
}

/** The links as JSON (snake_case, like the discovery document they point to). */
export const landingJson = (l: LandingLinks) => ({
  issuer: l.issuer,
  openid_configuration: l.discovery,
  jwks_uri: l.jwks,
  ...(l.signedJwks ? { signed_jwks_uri: l.signedJwks } : {}),
  ...(l.samlMetadata ? { saml_metadata: l.samlMetadata } : {}),
  health: l.health,
  account: l.account,
});

const link = (href: string, text: string, note: string) =>
  `<li><a href="${escapeHtml(href)}">${escapeHtml(text)}</a><br><span class="muted">${escapeHtml(note)}</span></li>`;

export function landingPage(l: LandingLinks): string {
  const protocols = l.samlMetadata ? 'OpenID Connect and SAML 2.0' : 'OpenID Connect';
  return layout(
    'Sign-in service',
    `<h1>Sign-in service</h1>
<p>This is <strong>${escapeHtml(l.issuer)}</strong>, a pqid identity provider. Applications send you here to sign in (${protocols}); the tokens it gives them can be signed with the post-quantum algorithm ML-DSA (FIPS 204).</p>
<p>You do not need to start here: open the application you want to use, and it will bring you back when you need to sign in.</p>
<p><a href="${escapeHtml(l.account)}">Your account and passkeys</a></p>
<h2>For developers</h2>
<ul class="links">
${[
  link(l.discovery, 'OpenID Provider configuration', 'the discovery document: endpoints and algorithms'),
  link(l.jwks, 'Signing keys (JWKS)', 'public keys that verify the tokens'),
  ...(l.signedJwks ? [link(l.signedJwks, 'Signed JWKS', 'the same keys, signed by the root key')] : []),
  ...(l.samlMetadata ? [link(l.samlMetadata, 'SAML metadata', 'entity ID, endpoints and certificates')] : []),
  link(l.health, 'Health', 'whether the server and its storage answer'),
].join('\n')}
</ul>`,
  );
}
