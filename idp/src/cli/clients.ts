/**
 * `pqid clients add|list|remove`: relying parties in the IdP's storage. `add` takes flags or a
 * JSON file of client metadata (`--metadata`, the same members dynamic registration accepts);
 * both go through the one validation every registration uses (clients/clients.ts).
 */
import { accessTokenAlgOf, type Client, describeClient } from '../clients/clients.ts';
import { encOf } from '../clients/encryption.ts';
import { clientKeyAlgs, registerClient } from '../clients/register.ts';
import type { IdpContext } from '../context.ts';
import { measureSignature } from '../keys/hot-path.ts';
import { resolveAlg, type SigningPurpose } from '../keys/placement.ts';
import { hotPathAlgorithms, isSlowSigner } from '../policy/algorithms.ts';
import { mapErrors, parse } from './args.ts';
import { ADD_OPTIONS, clientFromFlags } from './client-flags.ts';
import {
  CliError,
  type Command,
  err,
  json,
  out,
  table,
  UsageError,
  unknownSubcommand,
  wrapList,
} from './common.ts';
import { confirmNewKeys } from './confirm.ts';
import { withCli } from './open.ts';
import { type Transport, tokenFit } from './token-fit.ts';

const HELP = `Usage:
  pqid clients add --redirect-uri URL [--redirect-uri URL ...] [options]
  pqid clients add --grant client_credentials [options]     (a machine client)
  pqid clients list [--json]
  pqid clients remove CLIENT_ID

add options:
  --id ID                     client_id (default: random)
  --name NAME                 client_name shown on the login page
  --alg ALG                   id_token_signed_response_alg (default: the server's defaultSigningAlg):
${wrapList(hotPathAlgorithms(false), 30)}
                              (SLH-DSA only with keys.allowSlhDsaHotPath)
  --auth-method METHOD        client_secret_basic (default), client_secret_post, private_key_jwt, none
  --auth-alg ALG              private_key_jwt: the one alg its client assertions are signed with
                              (token_endpoint_auth_signing_alg; needs --jwks or --jwks-uri)
  --public                    a public client (browser or native app): --auth-method none, PKCE required
  --access-token-format FMT   reference (default), jwt (RFC 9068) or auto (reference when the JWT
                              would not fit one header line)
  --access-token-storage MODE stored or stateless: how its JWT access tokens are kept (default: the
                              accessTokenStorage setting; docs/PROTOCOL.md)
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
  --id-token-encryption ALG[,ENC]   sign, then encrypt ID tokens to the client's key for ALG
                              (e.g. HPKE-9: X-Wing; ECDH-ES+A256KW,A256GCM); needs --jwks or --jwks-uri
  --userinfo-encryption ALG[,ENC]   encrypt userinfo answers the same way
  --introspection-encryption ALG[,ENC]   RFC 9701: introspection answers as signed, then encrypted JWTs
  --request-object-encryption ALG[,ENC]   the alg (and enc) it says it encrypts request objects
                              with, one of keys.encryptionAlgs; declarative: any of those is accepted
                              ENC defaults to A128CBC-HS256; HPKE-n (Integrated Encryption) has none
  --backchannel-logout-uri URL  where logout tokens are POSTed
  --frontchannel-logout-uri URL  loaded in an iframe when the user signs out (iss and sid appended;
                              scheme, host and port of a redirect URI)
  --metadata FILE             client metadata as JSON (RFC 7591 members); flags override it
  --fits cookie,header,url    where the client must carry its tokens (default cookie,header);
                              a warning on stderr when the chosen algorithm's tokens do not fit
  --yes                       create and activate a signing key when the client's algorithm has
                              none yet (asked on a terminal; refused without --yes elsewhere)

A client with only --grant client_credentials is a machine client: no redirect URI, no ID
tokens, response_types [] and no PKCE.

add prints the client as JSON on stdout. A generated client_secret is shown this one time
only: the IdP stores its scrypt hash. Every command also takes --config FILE.`;

/** What `add` says after registering: the client, whether its tokens fit, what they cost. */
async function reportAdded(
  ctx: IdpContext,
  added: { client: Client; clientSecret?: string },
  needs: readonly Transport[],
): Promise<void> {
  const { client, clientSecret } = added;
  const place = (purpose: Exclude<SigningPurpose, 'cold'>, alg: string) =>
    resolveAlg(ctx.keys.placement, purpose, alg, ctx.config.defaultSigningAlg);
  // A machine client (no code flow) gets no ID tokens: nothing to warn about there.
  const idTokenAlg = client.grant_types.includes('authorization_code')
    ? place('id_token', client.id_token_signed_response_alg)
    : undefined;
  const accessTokenAlg = place('access_token', accessTokenAlgOf(client, ctx.config.accessTokenSigningAlg));
  // Judged on what it receives: the JWE, when it asked for encrypted ID tokens.
  const encAlg = client.id_token_encrypted_response_alg;
  const encEnc = encAlg === undefined ? undefined : encOf(encAlg, client.id_token_encrypted_response_enc);
  const fit = await tokenFit({
    issuer: ctx.config.issuer,
    clientId: client.client_id,
    ...(idTokenAlg ? { idTokenAlg } : {}),
    ...(encAlg ? { idTokenEncryption: encEnc ? { alg: encAlg, enc: encEnc } : { alg: encAlg } } : {}),
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
    if (alg !== undefined && isSlowSigner(alg)) {
      const ms = await measureSignature(ctx.keys, alg);
      err(
        `warning: every ${alg} token costs ${ms.toFixed(1)} ms of signing CPU on this machine (at most ${Math.floor(1000 / ms)} per core-second); SLH-DSA belongs on the cold path (docs/KEYS.md, "SLH-DSA on the hot path")`,
      );
    }
  if (clientSecret !== undefined) err('note: the client_secret above is shown only this once.');
}

async function add(rest: string[]): Promise<void> {
  const { values, positionals } = parse({
    args: rest,
    options: ADD_OPTIONS,
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
  const { input, needs } = clientFromFlags(values);
  await mapErrors(() =>
    withCli({ configFile: values.config, withKeys: true }, async (ctx) => {
      if (input.client_id !== undefined && (await ctx.clients.find(input.client_id)))
        throw new CliError('ERR_CLIENT_EXISTS', `client ${input.client_id} already exists; remove it first`);
      // Publishes every key its tokens may need (placement included) before it can get one:
      // a new one only when the operator agreed. The default and placement's algorithms are
      // exempt: every server start makes those keys anyway.
      const always = new Set([ctx.config.defaultSigningAlg, ...ctx.keys.placementAlgs()]);
      const missing = ctx.keys
        .missing(clientKeyAlgs(ctx, await ctx.clients.preview(input)))
        .filter((alg) => !always.has(alg));
      await confirmNewKeys({ algs: missing, set: 'oidc', doing: 'adding this client' }, values.yes);
      const added = await registerClient(ctx, input);
      await reportAdded(ctx, added, needs);
      // Only a client users sign in through has login and consent pages that show its name.
      if (input.client_name === undefined && added.client.grant_types.includes('authorization_code'))
        err('warning: no --name: the login and consent pages name this application by its client_id');
    }),
  );
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

/** What a removal ended (Clients.holderOf), and what it cannot reach. */
const REMOVED = (id: string) =>
  `removed client ${id}: on every instance its access tokens are inactive at introspection and refused at userinfo, ` +
  'its refresh tokens, unredeemed codes and pushed requests are refused, and its pending logout notices dropped. ' +
  'A resource server that checks JWT access tokens itself accepts them until they expire.';

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
      await ctx.clients.remove(id);
      out(REMOVED(id));
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
    throw unknownSubcommand('clients', sub, ['add', 'list', 'remove']);
  },
};
