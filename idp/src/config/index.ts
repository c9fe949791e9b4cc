/** Configuration: the table (table.ts), its types, loading, the environment and the database URL. */
export { ConfigError } from '../errors/index.ts';
export {
  isPostgresUrl,
  PG_DEFAULTS,
  type PostgresSettings,
  parsePostgresUrl,
  parseSqliteUrl,
  poolConfig,
  redactDatabaseUrl,
  type SqliteSynchronous,
  validateDatabaseUrl,
} from './database-url.ts';
export {
  backendSettings,
  cliDebug,
  ENVIRONMENT,
  type Env,
  type EnvironmentSettings,
  exportToProcessEnv,
  processEnv,
  readEnvironment,
} from './environment.ts';
export { type LoadConfigOptions, loadConfig } from './load.ts';
export { checkResourceUri, resourceServerAlgs } from './sections.ts';
export type * from './types.ts';
export { ACCESS_TOKEN_STORAGES } from './types.ts';
