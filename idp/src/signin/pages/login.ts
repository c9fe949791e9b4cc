/** The login form: a password, and a passkey when passkeys are on. Works without JavaScript. */
import { escapeHtml, layout } from '../../ui/html.ts';
import { alert, csrfField, type PasskeyForm, passkeyForm } from './parts.ts';

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
${csrfField(input.csrf)}
<label for="username">Username</label>
<input type="text" id="username" name="username" autocomplete="username" autocapitalize="none" spellcheck="false" required autofocus value="${escapeHtml(input.username ?? '')}"${describedBy}>
<label for="password">Password</label>
<input type="password" id="password" name="password" autocomplete="current-password" required${describedBy}>
<button type="submit">Sign in</button>
</form>
${input.passkey ? passkeyForm('get', input.passkey, input.csrf, 'Sign in with a passkey', '<p class="or">or</p>\n') : ''}`,
  );
}
