import { escapeHtml, inlineScript, layout } from './html.ts';

export function errorPage(title: string, message: string, code?: string): string {
  return layout(
    title,
    `<h1>${escapeHtml(title)}</h1>
<p role="alert">${escapeHtml(message)}</p>
${code ? `<p class="muted">Error code: <code>${escapeHtml(code)}</code></p>` : ''}
<p class="muted">You can close this page and return to the application.</p>`,
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
