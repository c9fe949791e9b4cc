/**
 * `pqid clients add|list|remove`: relying parties in the IdP's storage. `add` takes flags or a
 * JSON file of client metadata (`--metadata`, the same members dynamic registration accepts);
 * both go through the one validation every registration uses (clients/clients.ts).
 */
import { readFileSync } from 'node:fs';
import {
  ACCESS_TOKEN_FORMATS,
  type AccessTokenFormat,
  accessTokenAlgOf,
  type ClientInput,
  describeClient,
  type GrantType,
  parseClientMetadata,
  type TokenEndpointAuthMethod,
} from '../clients/clients.ts';
import { registerClient } from '../clients/register.ts';
import { measureSignature } from '../keys/hot-path.ts';
import { resolveAlg, type SigningPurpose } from '../keys/placement.ts';
import { isSlowSigner } from '../policy/algorithms.ts';
import { mapErrors, parse } from './args.ts';
import { CliError, type Command, err, json, out, table, UsageError } from './common.ts';
import { withCli } from './open.ts';
import { TRANSPORTS, type Transport, tokenFit } from './token-fit.ts';

const METHODS: readonly TokenEndpointAuthMethod[] = [
  'client_secret_basic',
  'client_secret_post',
  'private_key_jwt',
  'none',
];
const GRANTS: readonly GrantType[] = ['authorization_code', 'refresh_token', 'client_credentials'];

const HELP = `Usage:
  pqid clients add --redirect-uri URL [--redirect-uri URL ...] [options]
  pqid clients list [--json]
  pqid clients remove CLIENT_ID

add options:
  --id ID                     client_id (default: random)
  --name NAME                 client_name shown on the login page
  --alg ALG                   id_token_signed_response_alg (default: the server's defaultSigningAlg)
  --auth-method METHOD        client_secret_basic (default), client_secret_post, private_key_jwt, none
  --public                    a public client (browser or native app): --auth-method none, PKCE required
  --access-token-format FMT   reference (default), jwt (RFC 9068) or auto (reference when the JWT
                              would not fit one header line)
  --grant GRANT               authorization_code, refresh_token, client_credentials (repeatable)
  --scope "a b c"             scopes the client may request
  --acr ACR                   default_acr_values: the class a request gets when it names none, and
                              the least it may get (repeatable; e.g. urn:pqid:acr:mfa for two factors)
  --post-logout-redirect-uri URL   RP-initiated logout target (repeatable)
  --jwks FILE                 the client's public keys (JWK set: AKP keys for ML-DSA/composites)
  --jwks-uri URL              or where to fetch them
  --dpop-bound                every token request must carry a DPoP proof
  --require-par               authorization requests only through PAR
  --request-object-alg ALG    the only alg accepted on its request objects (needs keys)
  --backchannel-logout-uri URL  where logout tokens are POSTed
  --frontchannel-logout-uri URL  loaded in an iframe when the user signs out (iss and sid appended;
                              scheme, host and port of a redirect URI)
  --metadata FILE             client metadata as JSON (RFC 7591 members); flags override it
  --fits cookie,header,url    where the client must carry its tokens (default cookie,header);
                              a warning on stderr when the chosen algorithm's tokens do not fit

add prints the client as JSON on stdout. A generated client_secret is shown this one time
only: the IdP stores its scrypt hash. Every command also takes --config FILE.`;

function oneOf<T extends string>(
  value: string | undefined,
  allowed: readonly T[],
  flag: string,
): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value))
    throw new UsageError(`${flag} must be one of ${allowed.join(', ')}; got ${JSON.stringify(value)}`);
  return value as T;
}

async function add(rest: string[]): Promise<void> {
  const { values, positionals } = parse({
    args: rest,
    options: {
      id: { type: 'string' },
      name: { type: 'string' },
      'redirect-uri': { type: 'string', multiple: true },
      alg: { type: 'string' },
      'auth-method': { type: 'string' },
      public: { type: 'boolean', default: false },
      'access-token-format': { type: 'string' },
      grant: { type: 'string', multiple: true },
      scope: { type: 'string' },
      acr: { type: 'string', multiple: true },
      'post-logout-redirect-uri': { type: 'string', multiple: true },
      jwks: { type: 'string' },
      'jwks-uri': { type: 'string' },
      'dpop-bound': { type: 'boolean' },
      'require-par': { type: 'boolean' },
      'request-object-alg': { type: 'string' },
      'backchannel-logout-uri': { type: 'string' },
      'frontchannel-logout-uri': { type: 'string' },
      metadata: { type: 'string' },
      fits: { type: 'string' },
      config: { type: 'string' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
  const fromFile = values.metadata === undefined ? undefined : readMetadata(values.metadata);
  const redirects = values['redirect-uri'] ?? fromFile?.redirect_uris ?? [];
  const grants = (values.grant ?? []).map((g) => oneOf(g, GRANTS, '--grant') as GrantType);
  const allGrants = grants.length ? grants : (fromFile?.grant_types ?? []);
  if (redirects.length === 0 && !(allGrants.length === 1 && allGrants[0] === 'client_credentials'))
    throw new UsageError('--redirect-uri is required (repeat it for several)');
  let method = oneOf(values['auth-method'], METHODS, '--auth-method');
  if (values.public) {
    if (method !== undefined && method !== 'none')
      throw new UsageError('--public means --auth-method none; drop one of them');
    method = 'none';
  }
  const format = oneOf<AccessTokenFormat>(
    values['access-token-format'],
    ACCESS_TOKEN_FORMATS,
    '--access-token-format',
  );
  const needs = (values.fits ?? 'cookie,header')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((t) => oneOf(t, TRANSPORTS, '--fits') as Transport);
  const input: ClientInput = {
    ...fromFile,
    redirect_uris: redirects,
    ...(values.id !== undefined ? { client_id: values.id } : {}),
    ...(values.name !== undefined ? { client_name: values.name } : {}),
    ...(values.alg !== undefined ? { id_token_signed_response_alg: values.alg } : {}),
    ...(method !== undefined ? { token_endpoint_auth_method: method } : {}),
    ...(format !== undefined ? { access_token_format: format } : {}),
    ...(grants.length ? { grant_types: grants } : {}),
    ...(values.scope !== undefined ? { scope: values.scope } : {}),
    ...(values.acr?.length ? { default_acr_values: values.acr } : {}),
    ...(values['post-logout-redirect-uri']
      ? { post_logout_redirect_uris: values['post-logout-redirect-uri'] }
      : {}),
    ...(values.jwks !== undefined ? { jwks: readJson(values.jwks, '--jwks') as ClientInput['jwks'] } : {}),
    ...(values['jwks-uri'] !== undefined ? { jwks_uri: values['jwks-uri'] } : {}),
    ...(values['dpop-bound'] ? { dpop_bound_access_tokens: true } : {}),
    ...(values['require-par'] ? { require_pushed_authorization_requests: true } : {}),
    ...(values['request-object-alg'] !== undefined
      ? { request_object_signing_alg: values['request-object-alg'] }
      : {}),
    ...(values['backchannel-logout-uri'] !== undefined
      ? { backchannel_logout_uri: values['backchannel-logout-uri'] }
      : {}),
    ...(values['frontchannel-logout-uri'] !== undefined
      ? { frontchannel_logout_uri: values['frontchannel-logout-uri'] }
      : {}),
  };
  await mapErrors(() =>
    withCli({ configFile: values.config, withKeys: true }, async (ctx) => {
      if (input.client_id !== undefined && (await ctx.clients.find(input.client_id)))
        throw new CliError('ERR_CLIENT_EXISTS', `client ${input.client_id} already exists; remove it first`);
      // Publishes every key its tokens may need (placement included) before it can get one.
      const { client, clientSecret } = await registerClient(ctx, input);
      const place = (purpose: Exclude<SigningPurpose, 'cold'>, alg: string) =>
        resolveAlg(ctx.keys.placement, purpose, alg, ctx.config.defaultSigningAlg);
      const idTokenAlg = place('id_token', client.id_token_signed_response_alg);
      const accessTokenAlg = place(
        'access_token',
        accessTokenAlgOf(client, ctx.config.accessTokenSigningAlg),
      );
      const fit = await tokenFit({
        issuer: ctx.config.issuer,
        clientId: client.client_id,
        idTokenAlg,
        accessTokenAlg,
        accessTokenFormat: client.access_token_format ?? 'reference',
        needs,
      });
      out(
        json({
          ...describeClient(client),
          ...(clientSecret !== undefined ? { client_secret: clientSecret } : {}),
        }),
      );
      for (const w of fit.warnings) err(`warning: ${w}`);
      // SLH-DSA per token (allowed by keys.allowSlhDsaHotPath, else registration refused it).
      const jwtAccessTokens = (client.access_token_format ?? 'reference') !== 'reference';
      for (const alg of new Set([idTokenAlg, ...(jwtAccessTokens ? [accessTokenAlg] : [])]))
        if (isSlowSigner(alg)) {
          const ms = await measureSignature(ctx.keys, alg);
          err(
            `warning: every ${alg} token costs ${ms.toFixed(1)} ms of signing CPU on this machine (at most ${Math.floor(1000 / ms)} per core-second); SLH-DSA belongs on the cold path (docs/KEYS.md, "SLH-DSA on the hot path")`,
          );
        }
      if (clientSecret !== undefined) err('note: the client_secret above is shown only this once.');
    }),
  );
}

function readJson(path: string, flag: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(`${flag}: cannot read ${path}: ${(e as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${flag}: ${path} is not JSON: ${(e as Error).message}`);
  }
}

/** A JSON client-metadata document, type-checked like a registration request. */
function readMetadata(path: string): ClientInput {
  try {
    return parseClientMetadata(readJson(path, '--metadata'));
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`--metadata: ${(e as Error).message}`);
  }
}

async function list(rest: string[]): Promise<void> {
  const { values } = parse({
    args: rest,
    options: { json: { type: 'boolean', default: false }, config: { type: 'string' } },
    strict: true,
  });
  const clients = await mapErrors(() =>
    withCli({ configFile: values.config, withKeys: false }, (ctx) => ctx.clients.list()),
  );
  if (values.json) {
    out(json(clients.map(describeClient)));
    return;
  }
  out(
    table(
      ['client_id', 'name', 'auth method', 'id token alg', 'access tokens', 'redirect URIs'],
      clients.map((c) => [
        c.client_id,
        c.client_name ?? '',
        c.token_endpoint_auth_method,
        c.id_token_signed_response_alg,
        c.access_token_format ?? 'reference',
        c.redirect_uris.join(' ') || '-',
      ]),
    ),
  );
}

async function remove(rest: string[]): Promise<void> {
  const { values, positionals } = parse({
    args: rest,
    options: { config: { type: 'string' } },
    allowPositionals: true,
    strict: true,
  });
  const [id, extra] = positionals;
  if (id === undefined || extra !== undefined)
    throw new UsageError('clients remove takes exactly one CLIENT_ID');
  await mapErrors(() =>
    withCli({ configFile: values.config, withKeys: false }, async (ctx) => {
      if (!(await ctx.clients.find(id)))
        throw new CliError('ERR_NO_SUCH_CLIENT', `no client ${JSON.stringify(id)}`);
      // Its codes and refresh tokens stop working at once: the token endpoint cannot authenticate it.
      await ctx.clients.remove(id);
      out(`removed client ${id}`);
    }),
  );
}

export const clients: Command = {
  name: 'clients',
  summary: 'add, list or remove relying parties of the IdP',
  help: HELP,
  async run(args) {
    const [sub, ...rest] = args;
    if (sub === 'add') return add(rest);
    if (sub === 'list') return list(rest);
    if (sub === 'remove') return remove(rest);
    throw new UsageError(
      sub === undefined
        ? 'clients needs add, list or remove'
        : `unknown clients command ${JSON.stringify(sub)}`,
    );
  },
};
