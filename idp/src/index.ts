/** @pqid/idp — the pqid OpenID Provider. */

// First: on an unsupported Node, one line and exit before anything else loads.
import './supported-node.ts';

export { type Account, Accounts } from './accounts/accounts.ts';
export { type CreateIdpOptions, createIdp, type Idp, registerClient } from './app.ts';
export { type Client, ClientError, type ClientInput, Clients, describeClient } from './clients/clients.ts';
export { redactDatabaseUrl } from './config/database-url.ts';
export { type Config, type LoadConfigOptions, loadConfig } from './config/index.ts';
export type { IdpContext } from './context.ts';
export {
  ConfigError,
  IdpError,
  type IdpErrorCode,
  OAuthError,
  type OAuthErrorCode,
  SignerUnavailable,
  StorageUnavailable,
} from './errors/index.ts';
export { type ErrorAnswer, errorAnswer } from './http/errors.ts';
export { KeyManager, type KeyRecord } from './keys/key-manager.ts';
export { discoveryDocument } from './oidc/discovery.ts';
export { type SamlSizeRow, samlSizes } from './saml/sizes.ts';
export { registerSamlSp, type SamlSp, type SamlSpInput } from './saml/sps.ts';
export { buildServer } from './server.ts';
export type { Adapter, ModelName, Payload, Storage } from './storage/adapter.ts';
export { isStorageUnavailable } from './storage/errors.ts';
export { openStorage } from './storage/open.ts';
export { PostgresStorage } from './storage/postgres.ts';
export { SqliteStorage } from './storage/sqlite.ts';
