/** The account page: the user's passkeys, and the forms to add, remove, confirm or enrol. */
import { escapeHtml, layout } from '../../ui/html.ts';
import { alert, csrfField, type PasskeyForm, passkeyForm } from './parts.ts';

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
  /** The end-session endpoint: signing out asks once more there (a link cannot carry a CSRF token). */
  signOut: string;
  /** The landing page at the issuer URL: the way back from here. */
  landing: string;
}

const day = (t: number) => new Date(t * 1000).toISOString().slice(0, 10);

function passkeyRow(p: AccountPasskey, csrf: string, remove: string | undefined): string {
  return `<li class="passkey">
<strong>${escapeHtml(p.name)}</strong><br>
<span class="muted">${escapeHtml(p.algorithm)} · ${p.synced ? 'synced (may be on several devices)' : 'on one device'} · added ${day(p.createdAt)}${p.lastUsedAt ? ` · last used ${day(p.lastUsedAt)}` : ''}</span>
${p.counterRegressionAt ? `<p class="error">On ${day(p.counterRegressionAt)} this passkey was refused: its signature counter went backwards, which happens when an authenticator has been copied. Remove it unless you know why.</p>` : ''}
${
  remove
    ? `<form method="post" action="${escapeHtml(remove)}">
${csrfField(csrf)}
<input type="hidden" name="id" value="${escapeHtml(p.id)}">
<button type="submit" class="secondary" aria-label="Remove ${escapeHtml(p.name)}">Remove</button>
</form>`
    : ''
}
</li>`;
}

const registerForm = (register: PasskeyForm, csrf: string) =>
  `${passkeyForm(
    'create',
    register,
    csrf,
    'Add a passkey',
    '<label for="passkey-name">Name for the new passkey (optional)</label>\n<input type="text" id="passkey-name" name="name" maxlength="64" autocomplete="off">\n',
  )}
<noscript><p class="notice">Adding a passkey needs JavaScript.</p></noscript>`;

const confirmForm = (action: string, csrf: string) => `<form method="post" action="${escapeHtml(action)}">
${csrfField(csrf)}
<p class="notice">To add or remove passkeys, confirm it is you with one of your passkeys.</p>
<button type="submit">Confirm with a passkey</button>
</form>`;

const enrolForm = (action: string, csrf: string) => `<form method="post" action="${escapeHtml(action)}">
${csrfField(csrf)}
<p class="notice">To add your first passkey, enter the enrolment code your administrator gave you.</p>
<label for="enrolment-code">Enrolment code</label>
<input type="text" id="enrolment-code" name="code" maxlength="64" autocomplete="one-time-code" autocapitalize="characters" spellcheck="false" required>
<button type="submit">Continue</button>
</form>`;

export function accountPage(input: AccountPageInput): string {
  const rows = input.passkeys.map((p) => passkeyRow(p, input.csrf, input.remove)).join('\n');
  return layout(
    'Your account',
    `<h1>Your account</h1>
<p class="muted">Signed in as <strong>${escapeHtml(input.username)}</strong></p>
${input.message ? `<p class="notice" role="status">${escapeHtml(input.message)}</p>` : ''}${alert(input.error)}
<h2>Passkeys</h2>
${rows ? `<ul class="passkeys">\n${rows}\n</ul>` : '<p>You have no passkeys yet. A passkey lets you sign in without a password, or confirm a sign-in as a second factor.</p>'}
${input.register ? registerForm(input.register, input.csrf) : ''}${input.confirm ? confirmForm(input.confirm, input.csrf) : ''}${input.enrol ? enrolForm(input.enrol, input.csrf) : ''}
<nav class="leave" aria-label="Leave your account">
<a href="${escapeHtml(input.signOut)}">Sign out</a>
<a href="${escapeHtml(input.landing)}">Back to the sign-in service</a>
</nav>
<p class="muted">To go back to an application, open it again: you stay signed in here until you sign out.</p>`,
  );
}
