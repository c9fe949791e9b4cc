/**
 * What a password set by an operator must be. Length is the rule that matters (NIST SP 800-63B,
 * "Digital Identity Guidelines: Authentication and Lifecycle Management", §3.1.1.2 in revision 4):
 * at least 8 characters, every printable character and space allowed, no composition rules. The
 * upper bound only keeps a pasted file from being hashed; scrypt takes any length.
 */
import { IdpError } from '../errors/index.ts';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 1024;

/** A password the policy refuses; the message says why and never repeats the password. */
export class PasswordPolicyError extends IdpError<'ERR_PASSWORD_POLICY'> {
  constructor(message: string) {
    super('ERR_PASSWORD_POLICY', message, { status: 400, expose: true });
  }
}

/** Throws PasswordPolicyError unless `password` may be set for `username`. */
export function checkPassword(password: string, username: string): void {
  // Code points, not UTF-16 units: an emoji is one character to the user.
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH)
    throw new PasswordPolicyError(`the password must be at least ${PASSWORD_MIN_LENGTH} characters`);
  if (length > PASSWORD_MAX_LENGTH)
    throw new PasswordPolicyError(`the password must be at most ${PASSWORD_MAX_LENGTH} characters`);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(password))
    throw new PasswordPolicyError('the password must not contain control characters (tabs, line breaks)');
  if (password.trim().toLowerCase() === username.trim().toLowerCase())
    throw new PasswordPolicyError('the password must not be the username');
}
