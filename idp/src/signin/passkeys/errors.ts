import { IdpError } from '../../errors/index.ts';

/** Why a passkey ceremony was refused: a stable code for logs, tests and the page's message. */
export type PasskeyErrorCode =
  /** The posted credential is not the JSON shape WebAuthn's toJSON() produces. */
  | 'malformed_response'
  /** No live challenge of ours: unknown, expired, replaced by a newer one, or already used. */
  | 'challenge_invalid'
  /** The credential ID is not registered (or was removed). */
  | 'unknown_credential'
  /** The credential, or the user handle, belongs to another account than the ceremony's. */
  | 'wrong_account'
  /** The ceremony ran in a frame of another origin (clientData crossOrigin or topOrigin). */
  | 'cross_origin'
  /** The library refused the response (origin, RP ID, type, flags, attestation, signature…). */
  | 'verification_failed'
  /** User verification (PIN, biometric) was required and the authenticator did not do it. */
  | 'user_verification_required'
  /** The signature counter did not grow: a cloned authenticator, or a replay (credentials.ts). */
  | 'counter_regression'
  /** The backup-eligible flag differs from registration: not the same credential. */
  | 'backup_eligibility_changed'
  /** A credential key algorithm that was not offered, or that this runtime cannot verify. */
  | 'unsupported_algorithm'
  /** A credential public key that is malformed or does not match its algorithm. */
  | 'invalid_key'
  /** The credential ID is registered already. */
  | 'already_registered'
  /** A first passkey without a redeemed enrolment code (enrolment.ts). */
  | 'enrolment_required'
  /** Too many failed sign-ins for this account or address: try later. */
  | 'locked';

export class PasskeyError extends IdpError<PasskeyErrorCode> {
  constructor(code: PasskeyErrorCode, message: string) {
    super(code, message, { status: 400 });
  }
}
