/** The IdP's error model: one base (idp-error.ts) and the families every layer may raise. */
export {
  ConfigError,
  InternalError,
  OAuthError,
  SIGNER_RETRY_AFTER,
  SignerUnavailable,
  StorageUnavailable,
  UsageError,
} from './families.ts';
export { IdpError, type IdpErrorCode, type IdpErrorOptions, type OAuthErrorCode } from './idp-error.ts';
