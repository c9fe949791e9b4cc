import { escapeHtml, inlineScript, layout } from './html.ts';

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

export function errorPage(title: string, message: string, code?: string): string {
  return layout(
    title,
    `<h1>${escapeHtml(title)}</h1>
<p role="alert">${escapeHtml(message)}</p>
${code ? `<p class="muted">Error code: <code>${escapeHtml(code)}</code></p>` : ''}
<p class="muted">You can close this page and return to the application.</p>`,
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

// Runs only where scripts are allowed by the page's CSP hash; the noscript button covers the rest.
export const AUTO_SUBMIT = inlineScript('document.forms[0].submit();');

/** OAuth 2.0 Form Post Response Mode: the response travels in a POST body, never in a URL. */
export function formPostPage(action: string, params: Record<string, string | undefined>): string {
  const fields = Object.entries(params)
    .filter((e): e is [string, string] => e[1] !== undefined)
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join('\n');
  return layout(
    'Returning to the application',
    `<h1>Returning to the application…</h1>
<form method="post" action="${escapeHtml(action)}">
${fields}
<noscript><p>JavaScript is off: press the button to continue.</p><button type="submit">Continue</button></noscript>
</form>
${AUTO_SUBMIT.tag}`,
  );
}

export interface LogoutPageInput {
  action: string;
  csrf: string;
  clientName?: string;
}

export function logoutConfirmPage(input: LogoutPageInput): string {
  const from = input.clientName ? ` from <strong>${escapeHtml(input.clientName)}</strong>` : '';
  return layout(
    'Sign out',
    `<h1>Sign out?</h1>
<p>A sign-out was requested${from}. Do you want to sign out of pqid?</p>
<form method="post" action="${escapeHtml(input.action)}">
<input type="hidden" name="csrf" value="${escapeHtml(input.csrf)}">
<button type="submit" name="logout" value="yes">Sign out</button>
<button type="submit" name="logout" value="no" class="secondary">Stay signed in</button>
</form>`,
  );
}

export function messagePage(title: string, message: string): string {
  return layout(title, `<h1>${escapeHtml(title)}</h1>\n<p role="status">${escapeHtml(message)}</p>`);
}
