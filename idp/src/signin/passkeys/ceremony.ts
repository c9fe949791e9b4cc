/**
 * The two WebAuthn ceremonies (registration, authentication) through @simplewebauthn/server,
 * which checks type, challenge, origin, RP ID hash, the UP and UV flags, the attestation
 * statement and the signature — ML-DSA-44/65/87 (COSE -48/-49/-50) through Node's WebCrypto,
 * EdDSA, ES256 and RS256 likewise. What it leaves to the relying party is here: the shape of
 * what the browser posted, a ceremony in a cross-origin frame, the credential key itself at
 * registration (a key that could never verify is refused then, not at the first sign-in), the
 * backup-eligibility flag that must not change, and the counter policy (credentials.ts). Nothing
 * is accepted unless the library said `verified: true`.
 */
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  SettingsService,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { Config } from '../../config/index.ts';
import { COSE_ALG, isMlDsa, type PasskeyAlg, rpIdFor } from './config.ts';
import { checkCredentialKey } from './credential-key.ts';
import type { Passkey } from './credentials.ts';
import { PasskeyError } from './errors.ts';

/** Who the ceremonies are for: the RP ID, the one origin accepted, the algorithms offered. */
export interface RelyingParty {
  rpId: string;
  rpName: string;
  origin: string;
  /** COSE identifiers, most preferred first. */
  algorithms: number[];
  /** Milliseconds the browser is given (the challenge's lifetime). */
  timeout: number;
}

/** ML-DSA is offered only where this runtime can verify it (WebCrypto ML-DSA, Node ≥ 24.7). */
export function relyingParty(config: Config): RelyingParty {
  const pqc = SettingsService.runtimeSupportsPQC();
  const offered = config.passkeys.algorithms.filter((a: PasskeyAlg) => pqc || !isMlDsa(a));
  return {
    rpId: rpIdFor(config.passkeys, config.issuer),
    rpName: config.passkeys.rpName,
    origin: new URL(config.issuer).origin,
    algorithms: offered.map((a) => COSE_ALG[a]),
    timeout: config.passkeys.challengeTtl * 1000,
  };
}

/** WebAuthn user handle: the account's `sub` (random, no personal data), as UTF-8 bytes. */
export const userHandleOf = (sub: string): string => Buffer.from(sub, 'utf8').toString('base64url');

const descriptor = (p: Passkey) => ({
  id: p.id,
  ...(p.transports.length ? { transports: p.transports as AuthenticatorTransportFuture[] } : {}),
});
type AuthenticatorTransportFuture = 'ble' | 'cable' | 'hybrid' | 'internal' | 'nfc' | 'smart-card' | 'usb';

export function registrationOptions(
  rp: RelyingParty,
  account: { sub: string; uid: string; name?: string },
  existing: readonly Passkey[],
  challenge: string,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  return generateRegistrationOptions({
    rpName: rp.rpName,
    rpID: rp.rpId,
    userName: account.uid,
    userID: Buffer.from(account.sub, 'utf8'),
    userDisplayName: account.name ?? account.uid,
    challenge: Buffer.from(challenge, 'base64url'),
    timeout: rp.timeout,
    attestationType: 'none',
    // The authenticator must not make a second credential for this account.
    excludeCredentials: existing.map(descriptor),
    // Discoverable if possible (passwordless sign-in); a non-discoverable one still serves as a
    // second factor. UV when the authenticator can: passwordless sign-in requires it.
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
    extensions: { credProps: true },
    supportedAlgorithmIDs: rp.algorithms,
  });
}

export function authenticationOptions(
  rp: RelyingParty,
  challenge: string,
  opts: { allow?: readonly Passkey[]; userVerification: 'required' | 'preferred' },
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  return generateAuthenticationOptions({
    rpID: rp.rpId,
    challenge: Buffer.from(challenge, 'base64url'),
    timeout: rp.timeout,
    userVerification: opts.userVerification,
    // Empty: any discoverable credential for this RP (passwordless; the account is not known yet).
    ...(opts.allow ? { allowCredentials: opts.allow.map(descriptor) } : {}),
  });
}

const B64U = /^[A-Za-z0-9_-]*$/;
/** Credential IDs are at most 1023 bytes (WebAuthn §5.8.3). */
const MAX_ID = 1366;

function b64u(v: unknown, what: string, max = 65_536): string {
  if (typeof v !== 'string' || v.length === 0 || v.length > max || !B64U.test(v))
    throw new PasskeyError('malformed_response', `${what} is not base64url`);
  return v;
}

function parseJson(json: string): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(json);
  } catch {
    throw new PasskeyError('malformed_response', 'the credential is not JSON');
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw new PasskeyError('malformed_response', 'the credential is not an object');
  const o = v as Record<string, unknown>;
  const id = b64u(o.id, 'id', MAX_ID);
  if (o.rawId !== id) throw new PasskeyError('malformed_response', 'rawId differs from id');
  if (o.type !== 'public-key') throw new PasskeyError('malformed_response', 'type is not public-key');
  if (typeof o.response !== 'object' || o.response === null)
    throw new PasskeyError('malformed_response', 'response is missing');
  if (
    o.clientExtensionResults !== undefined &&
    (typeof o.clientExtensionResults !== 'object' || o.clientExtensionResults === null)
  )
    throw new PasskeyError('malformed_response', 'clientExtensionResults is not an object');
  return o;
}

/** What navigator.credentials.get() gave the page, serialised (toJSON), checked for shape. */
export function parseAssertion(json: string): AuthenticationResponseJSON {
  const o = parseJson(json);
  const r = o.response as Record<string, unknown>;
  const response = {
    clientDataJSON: b64u(r.clientDataJSON, 'clientDataJSON'),
    authenticatorData: b64u(r.authenticatorData, 'authenticatorData'),
    signature: b64u(r.signature, 'signature'),
    ...(r.userHandle !== undefined && r.userHandle !== null
      ? { userHandle: b64u(r.userHandle, 'userHandle', 128) }
      : {}),
  };
  return {
    id: o.id as string,
    rawId: o.id as string,
    type: 'public-key',
    response,
    clientExtensionResults: {},
  };
}

/** What navigator.credentials.create() gave the page, serialised, checked for shape. */
export function parseAttestation(json: string): RegistrationResponseJSON & { discoverable?: boolean } {
  const o = parseJson(json);
  const r = o.response as Record<string, unknown>;
  const transports = Array.isArray(r.transports)
    ? r.transports.filter((t): t is string => typeof t === 'string' && /^[a-z-]{1,16}$/.test(t)).slice(0, 8)
    : [];
  const ext = (o.clientExtensionResults ?? {}) as { credProps?: { rk?: unknown } };
  const rk = ext.credProps?.rk;
  return {
    id: o.id as string,
    rawId: o.id as string,
    type: 'public-key',
    response: {
      clientDataJSON: b64u(r.clientDataJSON, 'clientDataJSON'),
      attestationObject: b64u(r.attestationObject, 'attestationObject'),
      transports,
    },
    clientExtensionResults: {},
    ...(typeof rk === 'boolean' ? { discoverable: rk } : {}),
  };
}

function clientData(clientDataJSON: string): Record<string, unknown> {
  let c: unknown;
  try {
    c = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'));
  } catch {
    throw new PasskeyError('malformed_response', 'clientDataJSON is not JSON');
  }
  if (typeof c !== 'object' || c === null || Array.isArray(c))
    throw new PasskeyError('malformed_response', 'clientDataJSON is not an object');
  return c as Record<string, unknown>;
}

/**
 * Refuse a ceremony run in a frame of another origin (WebAuthn §5.10.1 `crossOrigin`,
 * `topOrigin`). pqid's pages cannot be framed at all (`frame-ancestors 'none'`), so an honest
 * ceremony never is one. The library checks `topOrigin` only when the browser sends it, which
 * not every browser does, and accepts `crossOrigin: true` without it: that is refused here.
 */
function refuseCrossOrigin(clientDataJSON: string): void {
  const c = clientData(clientDataJSON);
  if (c.crossOrigin !== undefined && c.crossOrigin !== false)
    throw new PasskeyError('cross_origin', 'the ceremony ran in a cross-origin frame');
  if (c.topOrigin !== undefined) throw new PasskeyError('cross_origin', 'the client data names a top origin');
}

/** The challenge the client says it signed (clientDataJSON.challenge), to find our record by. */
export function presentedChallenge(clientDataJSON: string): string {
  const challenge = clientData(clientDataJSON).challenge;
  if (typeof challenge !== 'string' || challenge.length > 512 || !B64U.test(challenge))
    throw new PasskeyError('malformed_response', 'clientDataJSON has no challenge');
  return challenge;
}

/** The library's verdicts are Errors with English messages: kept for the log, never shown. */
function refused(e: unknown): PasskeyError {
  if (e instanceof PasskeyError) return e;
  const message = e instanceof Error ? e.message : String(e);
  if (/user verification/i.test(message)) return new PasskeyError('user_verification_required', message);
  if (/alg/i.test(message) && /unexpected public key/i.test(message))
    return new PasskeyError('unsupported_algorithm', message);
  return new PasskeyError('verification_failed', message);
}

/** A verified registration, ready to store as `accountId`'s passkey. */
export async function verifyRegistration(
  rp: RelyingParty,
  response: RegistrationResponseJSON & { discoverable?: boolean },
  expected: { challenge: string; accountId: string; name: string; now: number },
): Promise<Passkey & { discoverable?: boolean }> {
  refuseCrossOrigin(response.response.clientDataJSON);
  let result: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    result = await verifyRegistrationResponse({
      response,
      expectedChallenge: expected.challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpId,
      requireUserPresence: true,
      requireUserVerification: false,
      supportedAlgorithmIDs: rp.algorithms,
    });
  } catch (e) {
    throw refused(e);
  }
  if (!result.verified) throw new PasskeyError('verification_failed', 'attestation did not verify');
  const info = result.registrationInfo;
  const alg = checkCredentialKey(info.credential.publicKey);
  if (!rp.algorithms.includes(alg))
    throw new PasskeyError('unsupported_algorithm', `COSE alg ${alg} not offered`);
  return {
    id: info.credential.id,
    accountId: expected.accountId,
    publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
    alg,
    counter: info.credential.counter,
    transports: response.response.transports ?? [],
    backupEligible: info.credentialDeviceType === 'multiDevice',
    backedUp: info.credentialBackedUp,
    aaguid: info.aaguid,
    fmt: info.fmt,
    name: expected.name,
    createdAt: expected.now,
    ...(response.discoverable !== undefined ? { discoverable: response.discoverable } : {}),
  };
}

export interface VerifiedAssertion {
  counter: number;
  backedUp: boolean;
  userVerified: boolean;
}

/** Verify an assertion by `passkey` over `challenge`; the counter policy is the caller's. */
export async function verifyAssertion(
  rp: RelyingParty,
  response: AuthenticationResponseJSON,
  passkey: Passkey,
  expected: { challenge: string; requireUserVerification: boolean },
): Promise<VerifiedAssertion> {
  refuseCrossOrigin(response.response.clientDataJSON);
  let result: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    result = await verifyAuthenticationResponse({
      response,
      expectedChallenge: expected.challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpId,
      // Counter 0 turns the library's counter check off: credentials.ts applies the policy, after
      // the signature is known good, so a forged response can never flag a passkey.
      credential: { id: passkey.id, publicKey: Buffer.from(passkey.publicKey, 'base64url'), counter: 0 },
      requireUserVerification: expected.requireUserVerification,
    });
  } catch (e) {
    throw refused(e);
  }
  if (!result.verified) throw new PasskeyError('verification_failed', 'the signature did not verify');
  const info = result.authenticationInfo;
  // BE is fixed when the credential is created (WebAuthn §6.1.3): a change means another key.
  if ((info.credentialDeviceType === 'multiDevice') !== passkey.backupEligible)
    throw new PasskeyError('backup_eligibility_changed', 'the backup-eligible flag changed');
  return { counter: info.newCounter, backedUp: info.credentialBackedUp, userVerified: info.userVerified };
}
