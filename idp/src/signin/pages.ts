/**
 * The sign-in pages: the login form, the second-factor and "cannot meet" pages, the consent
 * question, and the account page. All work without JavaScript for password users; the passkey
 * forms are hidden until passkey.js (the one script, allowed by URL and integrity) un-hides them.
 */
import { escapeHtml, layout } from '../ui/html.ts';
import { PASSKEY_SCRIPT } from './passkey-script.ts';

/** Where a page's passkey form gets its options and posts its credential. */
export interface PasskeyForm {
  /** POST (JSON `{csrf}`) → the ceremony's options. */
  options: string;
  /** Form POST with `csrf` and `credential` (and `name` when registering). */
  action: string;
  /** URL of passkey.js (with its version), as the CSP allows it. */
  script: string;
}

function passkeyForm(
  mode: 'get' | 'create',
  p: PasskeyForm,
  csrf: string,
  label: string,
  extra = '',
): string {
  return `<form method="post" action="${escapeHtml(p.action)}" data-passkey="${mode}" data-options="${escapeHtml(p.options)}" hidden>
<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">
<input type="hidden" name="credential" value="">
${extra}<button type="button" data-passkey-start>${escapeHtml(label)}</button>
<p id="passkey-status" class="muted" role="status" aria-live="polite"></p>
</form>
<script src="${escapeHtml(p.script)}" integrity="${PASSKEY_SCRIPT.integrity}" defer></script>`;
}

const alert = (error: string | undefined) =>
  error ? `<p class="error" role="alert" id="login-error">${escapeHtml(error)}</p>` : '';

export interface LoginPageInput {
  action: string;
  csrf: string;
  clientName: string;
  username?: string;
  error?: string;
  /** Offer a passkey (passwordless, discoverable credentials). */
  passkey?: PasskeyForm;
  /** The request needs two factors: say so before the user types a password. */
  needsMfa?: boolean;
}

export function loginPage(input: LoginPageInput): string {
  const describedBy = input.error ? ' aria-describedby="login-error"' : '';
  const notice = input.needsMfa
    ? `<p class="notice">${escapeHtml(input.clientName)} asks for two factors: sign in with a passkey, or with your password and then your passkey.</p>`
    : '';
  return layout(
    'Sign in',
    `<h1>Sign in</h1>
<p class="muted">to continue to <strong>${escapeHtml(input.clientName)}</strong></p>
${notice}${alert(input.error)}
<form method="post" action="${escapeHtml(input.action)}" novalidate>
<input type="hidden" name="csrf" value="${escapeHtml(input.csrf)}">
<label for="username">Username</label>
<input type="text" id="username" name="username" autocomplete="username" autocapitalize="none" spellcheck="false" required autofocus value="${escapeHtml(input.username ?? '')}"${describedBy}>
<label for="password">Password</label>
<input type="password" id="password" name="password" autocomplete="current-password" required${describedBy}>
<button type="submit">Sign in</button>
</form>
${input.passkey ? passkeyForm('get', input.passkey, input.csrf, 'Sign in with a passkey', '<p class="or">or</p>\n') : ''}`,
  );
}

export interface SecondFactorPageInput {
  csrf: string;
  clientName: string;
  username: string;
  passkey: PasskeyForm;
  cancel: string;
  error?: string;
}

export function secondFactorPage(input: SecondFactorPageInput): string {
  return layout(
    'Confirm with your passkey',
    `<h1>Confirm with your passkey</h1>
<p><strong>${escapeHtml(input.clientName)}</strong> asks for a second factor. You are signing in as <strong>${escapeHtml(input.username)}</strong>.</p>
${alert(input.error)}
${passkeyForm('get', input.passkey, input.csrf, 'Use your passkey')}
<noscript><p class="notice">A passkey needs JavaScript. Turn it on and reload this page, or go back to the application.</p></noscript>
${cancelForm(input.cancel, input.csrf)}`,
  );
}

export interface UnmetPageInput {
  csrf: string;
  clientName: string;
  cancel: string;
  account: string;
}

export function unmetPage(input: UnmetPageInput): string {
  return layout(
    'A passkey is required',
    `<h1>A passkey is required</h1>
<p role="alert"><strong>${escapeHtml(input.clientName)}</strong> requires a sign-in with two factors (a passkey), and your account has no passkey yet.</p>
<p>Ask your administrator for an enrolment code, add a passkey on <a href="${escapeHtml(input.account)}">your account page</a>, then sign in to the application again.</p>
${cancelForm(input.cancel, input.csrf)}`,
  );
}

const cancelForm = (action: string, csrf: string) => `<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">
<button type="submit" class="secondary">Return to the application</button>
</form>`;

const SCOPE_TEXT: Record<string, string> = {
  openid: 'Know who you are (your account identifier)',
  profile: 'See your username and name',
  email: 'See your email address',
  offline_access: 'Stay connected when you are not using it (keep access after you sign out)',
};

export interface ConsentPageInput {
  action: string;
  csrf: string;
  clientName: string;
  scopes: string[];
  /** Where the access would be used (RFC 8707 resource indicators); absent: this provider. */
  resources?: string[];
}

export function consentPage(input: ConsentPageInput): string {
  const items = input.scopes.map((s) => `<li>${escapeHtml(SCOPE_TEXT[s] ?? s)}</li>`).join('\n');
  // The user should see who would hold the tokens, not only what they allow (RFC 8707 §1).
  const at = input.resources?.length
    ? `<p id="consent-resources">At these services:</p>
<ul class="resources" aria-labelledby="consent-resources">
${input.resources.map((r) => `<li><code>${escapeHtml(r)}</code></li>`).join('\n')}
</ul>
`
    : '';
  return layout(
    'Allow access',
    `<h1 id="consent-title">Allow access?</h1>
<p><strong>${escapeHtml(input.clientName)}</strong> asks to:</p>
<ul class="scopes" aria-labelledby="consent-title">
${items}
</ul>
${at}<form method="post" action="${escapeHtml(input.action)}">
<input type="hidden" name="csrf" value="${escapeHtml(input.csrf)}">
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny" class="secondary">Deny</button>
</form>
<p class="muted">You can change your mind later by signing out of the application.</p>`,
  );
}

export interface AccountPasskey {
  id: string;
  name: string;
  algorithm: string;
  synced: boolean;
  createdAt: number;
  lastUsedAt?: number;
  counterRegressionAt?: number;
}

export interface AccountPageInput {
  username: string;
  csrf: string;
  passkeys: AccountPasskey[];
  /** Absent when passkeys are turned off, or the session may not manage them. */
  register?: PasskeyForm;
  /** Where removals post; absent when the session may not manage passkeys. */
  remove?: string;
  /** Where to step up to manage passkeys (a session whose sign-in did not use one). */
  confirm?: string;
  /** Where an enrolment code for the first passkey is posted (no passkey, no code redeemed yet). */
  enrol?: string;
  message?: string;
  error?: string;
}

const day = (t: number) => new Date(t * 1000).toISOString().slice(0, 10);

export function accountPage(input: AccountPageInput): string {
  const rows = input.passkeys
    .map(
      (p) => `<li class="passkey">
<strong>${escapeHtml(p.name)}</strong><br>
<span class="muted">${escapeHtml(p.algorithm)} · ${p.synced ? 'synced (may be on several devices)' : 'on one device'} · added ${day(p.createdAt)}${p.lastUsedAt ? ` · last used ${day(p.lastUsedAt)}` : ''}</span>
${p.counterRegressionAt ? `<p class="error">On ${day(p.counterRegressionAt)} this passkey was refused: its signature counter went backwards, which happens when an authenticator has been copied. Remove it unless you know why.</p>` : ''}
${
  input.remove
    ? `<form method="post" action="${escapeHtml(input.remove)}">
<input type="hidden" name="csrf" value="${escapeHtml(input.csrf)}">
<input type="hidden" name="id" value="${escapeHtml(p.id)}">
<button type="submit" class="secondary" aria-label="Remove ${escapeHtml(p.name)}">Remove</button>
</form>`
    : ''
}
</li>`,
    )
    .join('\n');
  const register = input.register
    ? `${passkeyForm(
        'create',
        input.register,
        input.csrf,
        'Add a passkey',
        '<label for="passkey-name">Name for the new passkey (optional)</label>\n<input type="text" id="passkey-name" name="name" maxlength="64" autocomplete="off">\n',
      )}
<noscript><p class="notice">Adding a passkey needs JavaScript.</p></noscript>`
    : '';
  const confirm = input.confirm
    ? `<form method="post" action="${escapeHtml(input.confirm)}">
<input type="hidden" name="csrf" value="${escapeHtml(input.csrf)}">
<p class="notice">To add or remove passkeys, confirm it is you with one of your passkeys.</p>
<button type="submit">Confirm with a passkey</button>
</form>`
    : '';
  const enrol = input.enrol
    ? `<form method="post" action="${escapeHtml(input.enrol)}">
<input type="hidden" name="csrf" value="${escapeHtml(input.csrf)}">
<p class="notice">To add your first passkey, enter the enrolment code your administrator gave you.</p>
<label for="enrolment-code">Enrolment code</label>
<input type="text" id="enrolment-code" name="code" maxlength="64" autocomplete="one-time-code" autocapitalize="characters" spellcheck="false" required>
<button type="submit">Continue</button>
</form>`
    : '';
  return layout(
    'Your account',
    `<h1>Your account</h1>
<p class="muted">Signed in as <strong>${escapeHtml(input.username)}</strong></p>
${input.message ? `<p class="notice" role="status">${escapeHtml(input.message)}</p>` : ''}${alert(input.error)}
<h2>Passkeys</h2>
${rows ? `<ul class="passkeys">\n${rows}\n</ul>` : '<p>You have no passkeys yet. A passkey lets you sign in without a password, or confirm a sign-in as a second factor.</p>'}
${register}${confirm}${enrol}`,
  );
}
