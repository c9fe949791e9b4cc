/** The second factor: the account's passkey, or back to the application. */
import { escapeHtml, layout } from '../../ui/html.ts';
import { alert, cancelForm, type PasskeyForm, passkeyForm } from './parts.ts';

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
