/** The consent question: what the application asks to do, and at which services. */
import { escapeHtml, layout } from '../../ui/html.ts';
import { csrfField } from './parts.ts';

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
${csrfField(input.csrf)}
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny" class="secondary">Deny</button>
</form>
<p class="muted">You can change your mind later by signing out of the application.</p>`,
  );
}
