/** The consent question: what the application asks to do, and at which services. */
import { escapeHtml, layout } from '../../ui/html.ts';
import { csrfField } from './parts.ts';

const SCOPE_TEXT: Record<string, string> = {
  openid: 'Know who you are (your account identifier)',
  profile: 'See your username and name',
  email: 'See your email address',
  offline_access: 'Keep access when you are not using it, even after you sign out',
};

/** A lifetime in the largest whole unit a person would say: 14 days, 1 hour, 10 minutes. */
export function duration(seconds: number): string {
  const [n, unit] =
    seconds >= 86400 && seconds % 86400 === 0
      ? [seconds / 86400, 'day']
      : seconds >= 3600 && seconds % 3600 === 0
        ? [seconds / 3600, 'hour']
        : [Math.max(1, Math.round(seconds / 60)), 'minute'];
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

export interface ConsentPageInput {
  action: string;
  csrf: string;
  clientName: string;
  scopes: string[];
  /** Where the access would be used (RFC 8707 resource indicators); absent: this provider. */
  resources?: string[];
  /** The refresh token's absolute lifetime (ttl.refreshToken): how long `offline_access` lasts. */
  keepAccessSeconds: number;
  /** The access token's lifetime (ttl.accessToken): how long access lasts without a refresh token. */
  accessSeconds: number;
}

/**
 * What is really possible afterwards. The answer is remembered for this application; signing
 * out ends the session here but not a refresh token (OIDC Core §11: offline access outlives the
 * session), which lasts until it expires or the application or an administrator revokes it.
 */
function afterwards(input: ConsentPageInput): string {
  const name = `<strong>${escapeHtml(input.clientName)}</strong>`;
  const keep = input.scopes.includes('offline_access')
    ? ` Signing out does not end the access that continues while you are away: ${name} keeps it for up to ${duration(input.keepAccessSeconds)}, unless it disconnects your account sooner or an administrator of this server revokes it.`
    : ` After you sign out, ${name} can use what it already received for up to ${duration(input.accessSeconds)}.`;
  return `<p class="muted">This server remembers your answer for ${name}, so it may not ask again.${keep}</p>`;
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
${afterwards(input)}`,
  );
}
