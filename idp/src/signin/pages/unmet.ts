/** A need this account cannot meet (two factors, and it has no passkey): say so, then give up. */
import { escapeHtml, layout } from '../../ui/html.ts';
import { cancelForm } from './parts.ts';

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
