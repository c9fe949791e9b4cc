/**
 * The `id_token_hint` of RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0 §2): it must
 * be an ID token this provider issued (any published token-signing key, retired ones included,
 * never the root set /jwks may also publish; expired ones too) to one registered client. Only a
 * hint naming the signed-in user and session ends the session without a question.
 *
 * An RP that receives encrypted ID tokens sends the signed token it decrypted, or re-encrypts it
 * to one of the provider's encryption keys (§2); the JWE it received, which only it can open, is
 * refused with a message saying so.
 */
import { algorithms, createLocalJWKSet, type JwtClaims, verifyJwt } from '@pqid/jose';
import type { IdpContext } from '../../context.ts';
import type { AuthContext } from '../../signin/auth-context.ts';
import { OAuthError } from '../shared/errors.ts';
import { openProviderJwe } from '../shared/provider-jwe.ts';

/** A logout request this provider refuses; its message is shown to the user. */
export class LogoutError extends OAuthError {
  constructor(message: string) {
    super('invalid_request', message);
  }
}

/** What a verified `id_token_hint` says: the user, the client it was issued to, the session. */
export interface Hint {
  sub: string;
  aud: string;
  sid?: string;
}

/**
 * The hint's claims, if it is one of our ID tokens. The same keys sign RFC 9068 access tokens
 * (`at+jwt`), logout tokens (`logout+jwt`) and signed userinfo responses, which name a user and
 * a client too: the `typ` and the claims every ID token of ours carries (OIDC Core §2, plus
 * `auth_time`) tell them apart, and a logout token's `events` is refused (Back-Channel
 * Logout §2.4). An expired hint still identifies (RP-Initiated Logout §2).
 */
export async function verifyHint(ctx: IdpContext, hint: string): Promise<Hint> {
  const invalid = new LogoutError('The id_token_hint is not a valid ID token from this provider.');
  const signed = hint.split('.').length === 5 ? await decryptedHint(ctx, hint, invalid) : hint;
  let claims: JwtClaims;
  try {
    ({ claims } = await verifyJwt(signed, await createLocalJWKSet(ctx.keys.publicKeys('oidc')), {
      algorithms: algorithms(),
      issuer: ctx.config.issuer,
      typ: 'JWT',
      // No session outlives ttl.session, so an older hint cannot name a live one.
      clockTolerance: ctx.config.ttl.session,
      requiredClaims: ['iss', 'sub', 'aud', 'exp', 'iat', 'auth_time'],
    }));
  } catch {
    throw invalid;
  }
  // Ours always have exactly one audience: the client the ID token was issued to.
  const aud: unknown[] =
    typeof claims.aud === 'string' ? [claims.aud] : Array.isArray(claims.aud) ? claims.aud : [];
  const [client] = aud;
  if (aud.length !== 1 || typeof client !== 'string' || typeof claims.sub !== 'string') throw invalid;
  if (claims.events !== undefined || (claims.sid !== undefined && typeof claims.sid !== 'string'))
    throw invalid;
  return { sub: claims.sub, aud: client, ...(typeof claims.sid === 'string' ? { sid: claims.sid } : {}) };
}

/** The hint's own limit at the end-session endpoint. */
const MAX_JWE_BYTES = 32 * 1024;

/** The signed ID token inside a hint encrypted to the provider (a Nested JWT). */
async function decryptedHint(ctx: IdpContext, hint: string, invalid: LogoutError): Promise<string> {
  const opened = await openProviderJwe(ctx, hint, MAX_JWE_BYTES);
  if ('jwt' in opened) return opened.jwt;
  if (opened.reason === 'not-jwt') throw invalid;
  throw new LogoutError(
    'The id_token_hint is encrypted, but not to a key of this provider: send the signed ID token it contains.',
  );
}

/**
 * Whether the hint vouches for ending `session` without asking: it names that session's user
 * and, when both carry one, its `sid`. A hint for someone else, or for the same user's other
 * session, makes the request suspect (§2, §6): the user decides.
 */
export function vouchesFor(hint: Hint | undefined, session: AuthContext | undefined): boolean {
  if (!hint) return false;
  if (!session) return true; // nobody to sign out: only the redirect is left, checked above
  if (session.accountId !== hint.sub) return false;
  return hint.sid === undefined || session.sid === undefined || hint.sid === session.sid;
}
