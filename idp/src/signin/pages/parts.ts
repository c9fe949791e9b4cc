/**
 * What several sign-in pages share: the passkey form (hidden until passkey.js, the one script,
 * allowed by URL and integrity, un-hides it), the error alert and the way back to the application.
 */
import { escapeHtml } from '../../ui/html.ts';
import { PASSKEY_SCRIPT } from '../passkey-script.ts';

/** Where a page's passkey form gets its options and posts its credential. */
export interface PasskeyForm {
  /** POST (JSON `{csrf}`) → the ceremony's options. */
  options: string;
  /** Form POST with `csrf` and `credential` (and `name` when registering). */
  action: string;
  /** URL of passkey.js (with its version), as the CSP allows it. */
  script: string;
}

/** The hidden CSRF field every form of these pages posts. */
export const csrfField = (csrf: string) => `<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">`;

export function passkeyForm(
  mode: 'get' | 'create',
  p: PasskeyForm,
  csrf: string,
  label: string,
  extra = '',
): string {
  return `<form method="post" action="${escapeHtml(p.action)}" data-passkey="${mode}" data-options="${escapeHtml(p.options)}" hidden>
${csrfField(csrf)}
<input type="hidden" name="credential" value="">
${extra}<button type="button" data-passkey-start>${escapeHtml(label)}</button>
<p id="passkey-status" class="muted" role="status" aria-live="polite"></p>
</form>
<script src="${escapeHtml(p.script)}" integrity="${PASSKEY_SCRIPT.integrity}" defer></script>`;
}

export const alert = (error: string | undefined) =>
  error ? `<p class="error" role="alert" id="login-error">${escapeHtml(error)}</p>` : '';

/** Give up and go back: the second-factor and "cannot meet" pages. */
export const cancelForm = (
  action: string,
  csrf: string,
) => `<form method="post" action="${escapeHtml(action)}">
${csrfField(csrf)}
<button type="submit" class="secondary">Return to the application</button>
</form>`;
