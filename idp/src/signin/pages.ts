/** The sign-in pages: the login form and the consent question. Usable without JavaScript. */
import { escapeHtml, layout } from '../ui/html.ts';

export interface LoginPageInput {
  action: string;
  csrf: string;
  clientName: string;
  username?: string;
  error?: string;
}

export function loginPage(input: LoginPageInput): string {
  const error = input.error
    ? `<p class="error" role="alert" id="login-error">${escapeHtml(input.error)}</p>`
    : '';
  const describedBy = input.error ? ' aria-describedby="login-error"' : '';
  return layout(
    'Sign in',
    `<h1>Sign in</h1>
<p class="muted">to continue to <strong>${escapeHtml(input.clientName)}</strong></p>
${error}
<form method="post" action="${escapeHtml(input.action)}" novalidate>
<input type="hidden" name="csrf" value="${escapeHtml(input.csrf)}">
<label for="username">Username</label>
<input type="text" id="username" name="username" autocomplete="username" autocapitalize="none" spellcheck="false" required autofocus value="${escapeHtml(input.username ?? '')}"${describedBy}>
<label for="password">Password</label>
<input type="password" id="password" name="password" autocomplete="current-password" required${describedBy}>
<button type="submit">Sign in</button>
</form>`,
  );
}

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
}

export function consentPage(input: ConsentPageInput): string {
  const items = input.scopes.map((s) => `<li>${escapeHtml(SCOPE_TEXT[s] ?? s)}</li>`).join('\n');
  return layout(
    'Allow access',
    `<h1 id="consent-title">Allow access?</h1>
<p><strong>${escapeHtml(input.clientName)}</strong> asks to:</p>
<ul class="scopes" aria-labelledby="consent-title">
${items}
</ul>
<form method="post" action="${escapeHtml(input.action)}">
<input type="hidden" name="csrf" value="${escapeHtml(input.csrf)}">
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny" class="secondary">Deny</button>
</form>
<p class="muted">You can change your mind later by signing out of the application.</p>`,
  );
}
