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

/**
 * Continues to the application once every front-channel frame has loaded (the window's load
 * event waits for its iframes) or after 3 s, whichever comes first: an RP that hangs must not
 * keep the user here. Allowed by its CSP hash; without scripts, a refresh does the same.
 */
export const CONTINUE_AFTER_FRAMES = inlineScript(
  "(function(){var a=document.getElementById('continue'),gone=false;function go(){if(!gone){gone=true;location.replace(a.href)}}addEventListener('load',go);setTimeout(go,3000)})();",
);

export interface SignedOutPageInput {
  /** One hidden iframe each: the application's name and its front-channel logout URL. */
  frames: Array<{ name: string; src: string }>;
  /** Where to go once the frames are done (the post_logout_redirect_uri with its state). */
  continueTo?: string;
}

/** OIDC Front-Channel Logout 1.0 §3: the signed-out page renders each RP's logout URI in an iframe. */
export function frontchannelLogoutPage({ frames, continueTo }: SignedOutPageInput): string {
  const names = frames.map((f) => `<li>${escapeHtml(f.name)}</li>`).join('\n');
  const iframes = frames
    .map(
      (f) =>
        `<iframe hidden title="Signing out of ${escapeHtml(f.name)}" src="${escapeHtml(f.src)}"></iframe>`,
    )
    .join('\n');
  const next = continueTo
    ? `<p><a id="continue" href="${escapeHtml(continueTo)}">Continue to the application</a></p>
<noscript><meta http-equiv="refresh" content="0;url=${escapeHtml(continueTo)}"></noscript>
${CONTINUE_AFTER_FRAMES.tag}`
    : '<p class="muted">You can close this page.</p>';
  return layout(
    'Signed out',
    `<h1>Signed out</h1>
<p role="status">You are signed out. Signing you out of these applications too:</p>
<ul class="scopes">
${names}
</ul>
${iframes}
${next}`,
  );
}

/** A browser's 404: what happened, and the way to the landing page. */
export function notFoundPage(landing: string): string {
  return layout(
    'Page not found',
    `<h1>Page not found</h1>
<p role="alert">There is no page at this address on this sign-in service.</p>
<p><a href="${escapeHtml(landing)}">Go to the sign-in service's home page</a></p>`,
  );
}
