/**
 * Every setting of the IdP in one table: where it sits in the file, the environment variable that
 * sets it, its default, what it means and how it is checked. loadConfig reads this table, and
 * docs/CONFIGURATION.md is generated from it (`npm run docs:config`), so a setting, its default
 * and its documentation cannot drift apart. Cross-setting rules (one setting constraining
 * another) are in load.ts.
 */
import { algorithms, jweRegistry } from '@pqid/jose';
import { DEFAULT_SAML_LIMITS, type XmlLimits } from '@pqid/xmldsig';
import { isAddressOrRange, OutboundAllowlist } from '../policy/addresses.ts';
import { rootAlgs, SAML_SIGNING_ALGS } from '../policy/algorithms.ts';
import { KEY_SETS } from '../policy/key-sets.ts';
import { PASSKEY_ALGS } from '../policy/passkeys.ts';
import { resourceServers, signers } from './sections.ts';
import {
  ACCESS_TOKEN_STORAGES,
  type AccessTokenStorage,
  type Config,
  type ExternalSignerConfig,
  type ResourceServerConfig,
} from './types.ts';
import {
  algorithm,
  anyText,
  bool,
  type Check,
  envFlag,
  fail,
  fractionalSeconds,
  isObject,
  issuerUrl,
  listOf,
  oneOf,
  port,
  positiveInt,
  seconds,
  secondsIn,
  secret,
  text,
} from './values.ts';

const nonNegative: Check<number> = (v, at) => {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
    fail(`${at} must be a non-negative integer (seconds)`);
  return v as number;
};

const trueOrFalse: Check<boolean> = (v, at) => {
  if (typeof v !== 'boolean') fail(`${at} must be true or false`);
  return v as boolean;
};

export interface Setting<T> {
  /** The environment variable that sets it (it wins over the file). */
  env?: string;
  /** The embedded default; undefined: unset unless configured. */
  default: () => T | undefined;
  /** The default as the documentation shows it, when it is derived or long. */
  shown?: string;
  /** What it means and what it accepts (Markdown, one line). */
  doc: string;
  check: Check<T>;
  /** An environment variable's text as a value for `check` (default: the text itself). */
  fromEnv?: (text: string) => unknown;
  /** An object of named entries: each layer adds or replaces entries instead of the whole. */
  named?: boolean;
}

type Entry<T> = [T] extends [readonly unknown[]]
  ? Setting<T>
  : [T] extends [object]
    ? Setting<T> | Section<T>
    : Setting<T>;

export interface Section<S> {
  /** Said of an unknown key ("setting" by default, "limit", "object"). */
  noun?: string;
  entries: { [K in keyof S]-?: Entry<Exclude<S[K], undefined>> };
}

export const isSection = (e: Setting<unknown> | Section<unknown>): e is Section<unknown> => 'entries' in e;

const value =
  <T>(v: T) =>
  () =>
    v;
const unset = () => undefined;
const seconds1 = (doc: string, def: number, shown?: string): Setting<number> => ({
  default: value(def),
  doc,
  check: positiveInt,
  ...(shown ? { shown } : {}),
});

const PLACEMENT_HOT = (what: string): Setting<string> => ({
  default: value('client'),
  doc: `${what}: \`client\` (the client's registered algorithm) or a fixed algorithm — see [KEYS.md](KEYS.md#placement-which-key-signs-what)`,
  check: oneOf(() => ['client', ...algorithms()]),
});

const requestLimit = (name: keyof XmlLimits, doc: string): Setting<number> => ({
  default: value(DEFAULT_SAML_LIMITS[name]),
  doc,
  check: positiveInt,
});

const custody: Check<Partial<Record<(typeof KEY_SETS)[number], string>>> = (v, at) => {
  if (!isObject(v)) fail(`${at} must map key sets to "sealed" or a signer name`);
  for (const [set, name] of Object.entries(v as Record<string, unknown>)) {
    if (!(KEY_SETS as readonly string[]).includes(set))
      fail(`${at}: unknown key set "${set}"; one of ${KEY_SETS.join(', ')}`);
    if (typeof name !== 'string') fail(`${at}.${set} must be "sealed" or a signer name`);
    if (set === 'enc' && name !== 'sealed')
      fail(`${at}.enc: encryption keys are sealed under the KEK; a KMS/HSM holds signing keys only`);
  }
  return v as Record<string, string>;
};

/** The table. Keys and nesting are the file's and Config's. */
export const SETTINGS: Section<Config> = {
  entries: {
    port: {
      env: 'PQID_PORT',
      default: value(3000),
      doc: 'integer 0–65535; 0 (any free port) needs `issuer` set',
      check: port,
    },
    host: {
      env: 'PQID_HOST',
      default: value('127.0.0.1'),
      doc: 'listen address; `0.0.0.0` for containers',
      check: text,
    },
    trustProxy: {
      env: 'PQID_TRUST_PROXY',
      default: () => [],
      shown: '`[]`',
      doc: "IP addresses and CIDR ranges of the reverse proxies in front of the IdP: a request from one of them is from the address its `X-Forwarded-For` names (the nearest hop not listed). Empty: from the address that connected. **Behind a proxy, list it**: the login limits (`loginLimits.maxFailuresPerAddress`, the only budget passkey failures spend) and the logs go by that address, and otherwise every user shares the proxy's single budget, which anyone can spend to lock everyone out. List only proxies that set the header themselves. The variable is comma- or space-separated and replaces the file's list",
      fromEnv: (text) => text.split(/[\s,]+/).filter(Boolean),
      check: (v, at) => {
        if (!Array.isArray(v) || v.some((e) => typeof e !== 'string' || !isAddressOrRange(e)))
          fail(`${at} must be an array of IP addresses or CIDR ranges (e.g. 10.0.0.5 or 10.0.0.0/24)`);
        return [...(v as string[])];
      },
    },
    issuer: {
      env: 'PQID_ISSUER',
      default: unset,
      shown: '`http://localhost:<port>`',
      doc: 'absolute URL, `https:` (or `http:` for localhost / 127.0.0.1 / [::1] only), no query or fragment; a trailing `/` is dropped. A path is allowed (`https://example.com/idp`) and prefixes every endpoint',
      check: issuerUrl,
    },
    dataDir: {
      env: 'PQID_DATA_DIR',
      default: value('data'),
      shown: '`./data` (relative to the working dir)',
      doc: 'the SQLite database and a generated KEK file live here',
      check: text,
    },
    databaseUrl: {
      env: 'PQID_DATABASE_URL',
      default: unset,
      shown: '`sqlite:<dataDir>/pqid.sqlite`',
      doc: '`sqlite:<path>`, `sqlite::memory:` or `postgres://user:pass@host:port/db` (several instances share one database). SQLite takes `?synchronous=normal` (default) or `?synchronous=full`: see [OPERATIONS.md](OPERATIONS.md#sqlite-durability)',
      check: text,
    },
    metricsToken: {
      env: 'PQID_METRICS_TOKEN',
      default: unset,
      shown: '(unset: `/metrics` is open)',
      doc: 'at least 16 characters; `GET /metrics` then needs `Authorization: Bearer <token>` (401 otherwise), and the same bearer opens the detail of `/healthz` (keys, algorithms, backends), which is never served without a configured token. Unset, keep `/metrics` off the public listener (proxy rule or firewall)',
      check: secret,
    },
    purgeInterval: {
      env: 'PQID_PURGE_INTERVAL',
      default: value(600),
      doc: 'seconds between sweeps that delete expired codes, tokens, sessions and grant tombstones; whole number ≥ 0, `0` turns the sweep off',
      check: seconds,
    },
    clientCacheTtl: {
      env: 'PQID_CLIENT_CACHE_TTL',
      default: value(2),
      doc: 'seconds an instance reuses a client record it read (whole number 0–60; `0` reads it on every request). Changes made through the instance apply at once; a change or removal made by another instance or `pqid clients` applies within this time, except that the tokens, codes and pushed requests of a removed client end at once everywhere. The secret or assertion is checked on every request',
      check: (v, at) => {
        const n = seconds(v, at);
        if (n > 60) fail(`${at} must be at most 60 seconds: a longer cache keeps a removed client working`);
        return n;
      },
    },
    defaultSigningAlg: {
      env: 'PQID_DEFAULT_SIGNING_ALG',
      default: value('ML-DSA-65'),
      doc: 'a `@pqid/jose` registry algorithm available here (`pqid algorithms`); used for clients that register none, and for the first key generated',
      check: text,
    },
    accessTokenSigningAlg: {
      env: 'PQID_ACCESS_TOKEN_SIGNING_ALG',
      default: unset,
      shown: '(unset: per client)',
      doc: 'shorthand for `keys.placement.accessToken` (which wins when both are set)',
      check: algorithm,
    },
    accessTokenHeaderBudget: {
      default: value(8190),
      doc: 'positive integer, bytes: `auto` access tokens become reference tokens when `Authorization: Bearer <jwt>` would exceed it (nginx/Apache default header line limit)',
      check: positiveInt,
    },
    accessTokenStorage: {
      env: 'PQID_ACCESS_TOKEN_STORAGE',
      default: value<AccessTokenStorage>('stored'),
      doc: '`stored` or `stateless`, for JWT access tokens (reference tokens are always stored). `stored`: a record per token, which introspection and userinfo look up. `stateless`: nothing written per token; introspection and userinfo verify its signature and consult a denylist that revocation writes. Overridden by a resource server (`accessTokenStorage`), then by the client (`access_token_storage`); [PROTOCOL.md](PROTOCOL.md#access-token-storage-stored-or-stateless)',
      check: oneOf(() => ACCESS_TOKEN_STORAGES),
    },
    bodyLimit: {
      default: value(64 * 1024),
      doc: 'positive integer, bytes, for every request body',
      check: positiveInt,
    },
    logLevel: {
      env: 'PQID_LOG_LEVEL',
      default: value('info'),
      doc: 'pino level; `silent` disables logging. Secrets, tokens, codes and cookies are redacted at every level',
      check: text,
    },
    ttl: {
      noun: 'ttl',
      entries: {
        authorizationCode: seconds1('seconds, positive integer (all `ttl.*`); codes are single use', 60),
        accessToken: seconds1('seconds', 3600),
        idToken: seconds1('seconds', 3600),
        refreshToken: seconds1(
          'seconds: absolute grant lifetime; rotation never extends it',
          14 * 86400,
          '`1209600` (14 days)',
        ),
        session: seconds1('seconds: the browser session at the IdP', 86400),
        interaction: seconds1('seconds: how long a login/consent page stays valid', 600),
      },
    },
    demo: {
      entries: {
        enabled: {
          env: 'PQID_DEMO',
          default: value(true),
          doc: 'seed a demo user and client on first start (`false`, `0`, `no`, `off` disable)',
          check: bool,
          fromEnv: envFlag,
        },
        username: {
          default: value('demo'),
          doc: 'non-empty when the demo is on (all `demo.*`)',
          check: anyText,
        },
        password: { default: value('demo'), doc: "the demo user's password", check: anyText },
        clientId: {
          default: value('demo-client'),
          doc: 'the demo client (client_secret_basic)',
          check: anyText,
        },
        clientSecret: { default: value('demo-secret'), doc: 'its secret', check: anyText },
        redirectUri: {
          default: value('http://localhost:3001/callback'),
          doc: 'matches `examples/oidc-rp`',
          check: anyText,
        },
        idTokenSignedResponseAlg: {
          default: value('ML-DSA-65'),
          doc: "the demo client's ID token algorithm",
          check: anyText,
        },
      },
    },
    keys: {
      entries: {
        placement: {
          noun: 'object',
          entries: {
            idToken: PLACEMENT_HOT('ID tokens'),
            accessToken: PLACEMENT_HOT('JWT access tokens'),
            userinfo: PLACEMENT_HOT('signed userinfo responses'),
            cold: {
              default: value('auto'),
              doc: "the cold-path root's algorithm (the `root` set: SAML certificates and metadata, the signed JWKS): `auto` = the existing root's, SLH-DSA-SHA2-128s for a new store; or SLH-DSA-SHA2-128s/-SHAKE-128s/-SHA2-128f, ML-DSA-87/65/44, ES256, RS256. `saml.rootAlg` is its older name ([KEYS.md](KEYS.md#the-cold-path-an-slh-dsa-root))",
              check: oneOf(() => ['auto', ...algorithms()]),
            },
          },
        },
        prepublish: {
          default: value(3600),
          doc: 'seconds ≥ 0 a rotated-in key is published before it signs (≥ the JWKS cache max-age, 300 s)',
          check: nonNegative,
        },
        coldLifetime: {
          default: value(7 * 86400),
          shown: '`604800` (7 days)',
          doc: 'seconds ≥ 0: lifetime of the signed JWKS, retention of retired root keys',
          check: nonNegative,
        },
        refreshInterval: {
          default: value(60),
          doc: 'seconds ≥ 1 between re-reads of the key store (rotations by `pqid keys rotate`) and of a KEK file',
          check: (v, at) => {
            const n = nonNegative(v, at);
            if (n === 0) fail('keys.refreshInterval must be at least 1 second');
            return n;
          },
        },
        publishRoot: {
          default: value(false),
          doc: 'also publish the `root` key set (the cold-path root) in `/jwks` ([KEYS.md](KEYS.md#key-sets))',
          check: bool,
        },
        signedJwks: {
          default: value(false),
          doc: 'serve the OIDC JWKS signed by the root at `/jwks.jwt`, advertised as `signed_jwks_uri` ([KEYS.md](KEYS.md#the-signed-jwks))',
          check: bool,
        },
        allowSlhDsaHotPath: {
          default: value(false),
          doc: "accept SLH-DSA for clients', SPs' and placement's per-token signing; refused otherwise, and each start warns with its measured cost when on ([KEYS.md](KEYS.md#slh-dsa-on-the-hot-path))",
          check: bool,
        },
        signers: {
          default: () => ({}) as Record<string, ExternalSignerConfig>,
          shown: '(none)',
          doc: 'external key providers by name: `{ "type": "module", "module": path, "options": {…} }` (a KMS adapter of your own) or `{ "type": "pkcs11", "library", "token", "pinEnv", "env" }` ([KEYS.md](KEYS.md#keys-in-a-kms-or-hsm))',
          check: signers,
          named: true,
        },
        custody: {
          default: () => ({}),
          shown: '`sealed` for every set',
          doc: 'where new keys of `oidc`, `saml` or `root` are made: `sealed` (under the KEK) or a `keys.signers` name; `enc` keys are always sealed',
          check: custody,
          named: true,
        },
        encryptionAlgs: {
          default: () => ['HPKE-9', 'ECDH-ES+A256KW'],
          shown: '`["HPKE-9", "ECDH-ES+A256KW"]`',
          doc: 'JWE algorithms of the IdP\'s own encryption keys (the `enc` set, in `/jwks` with `use: "enc"`), one key each, made at start: what clients may encrypt request objects to. HPKE-9 is X-Wing (ML-KEM-768 + X25519); ECDH-ES+A256KW a P-256 key for classical clients ([KEYS.md](KEYS.md#encryption-keys))',
          check: listOf(() => jweRegistry().map((e) => e.alg), true),
        },
      },
    },
    loginLimits: {
      entries: {
        window: seconds1(
          'seconds, sliding window for failed logins; a lockout ends when failures age out of it',
          900,
        ),
        maxFailuresPerAccount: {
          default: value(5),
          doc: 'failures per submitted username (existing or not) within the window',
          check: positiveInt,
        },
        maxFailuresPerAddress: {
          default: value(50),
          doc: 'failures per client address (IPv6: per /64) within the window (password spraying)',
          check: positiveInt,
        },
      },
    },
    saml: {
      entries: {
        enabled: {
          default: value(true),
          doc: 'the SAML IdP ([SAML.md](SAML.md)); `false` turns its endpoints off',
          check: bool,
        },
        entityId: {
          default: unset,
          shown: '`<issuer>/saml/metadata`',
          doc: 'the IdP entityID',
          check: text,
        },
        rootAlg: {
          default: unset,
          shown: '(unset)',
          doc: 'older name of `keys.placement.cold`',
          check: oneOf(rootAlgs),
        },
        metadataAlgs: {
          default: () => ['ML-DSA-65', 'RS256'],
          shown: '`["ML-DSA-65", "RS256"]`',
          doc: `hot algorithms always published in the metadata (SP registrations add theirs): a list of ${SAML_SIGNING_ALGS.join(', ')}; RS256 lets a legacy SP be onboarded from the metadata alone`,
          check: listOf(() => SAML_SIGNING_ALGS, true),
        },
        defaultAlg: {
          default: value('ML-DSA-65'),
          doc: `algorithm for SPs that register none: ${SAML_SIGNING_ALGS.join(', ')}`,
          check: oneOf(() => SAML_SIGNING_ALGS),
        },
        assertionLifetime: seconds1(
          'seconds an assertion (Conditions, SubjectConfirmationData) stays valid',
          300,
        ),
        requestMaxAge: seconds1(
          'seconds an AuthnRequest/LogoutRequest may be old (IssueInstant); also the replay window',
          600,
        ),
        maxRequestBytes: {
          default: value(64 * 1024),
          doc: 'bytes an inflated or decoded request may have',
          check: positiveInt,
        },
        requestLimits: {
          noun: 'limit',
          entries: {
            maxElements: requestLimit(
              'maxElements',
              'shape limits on every AuthnRequest/LogoutRequest, checked before it is parsed ([SAML.md](SAML.md#work-limits)): elements',
            ),
            maxDepth: requestLimit('maxDepth', 'nesting depth'),
            maxChildren: requestLimit('maxChildren', 'children of one element'),
            maxAttributes: requestLimit('maxAttributes', 'attributes of one element'),
            maxTotalAttributes: requestLimit('maxTotalAttributes', 'attributes in all'),
          },
        },
        leafCertificateDays: {
          default: value(730),
          doc: "validity of the hot keys' certificates, days",
          check: positiveInt,
        },
        rootCertificateDays: {
          default: value(3650),
          doc: "validity of the root's certificate, days",
          check: positiveInt,
        },
        metadataValidity: seconds1(
          'seconds the signed metadata is valid (`validUntil`) and cached by SPs',
          7 * 86400,
          '`604800` (7 days)',
        ),
      },
    },
    passkeys: {
      entries: {
        enabled: {
          default: value(true),
          doc: 'offer passkeys: login page, second factor, account page ([SIGN-IN.md](SIGN-IN.md))',
          check: bool,
        },
        rpId: {
          default: unset,
          shown: "the issuer's host",
          doc: "WebAuthn RP ID: the issuer's host or a domain suffix of it (passkeys then work on sibling hosts too); checked at start",
          check: (v, at) => {
            if (
              typeof v !== 'string' ||
              !/^[a-z0-9.-]{1,253}$/.test(v) ||
              v.startsWith('.') ||
              v.endsWith('.')
            )
              fail(`${at} must be a lower-case host name`);
            return v as string;
          },
        },
        rpName: {
          default: value('pqid'),
          doc: 'the name authenticators show, 1–64 characters',
          check: (v, at) => {
            if (typeof v !== 'string' || v.trim() === '' || v.length > 64)
              fail(`${at} must be a non-empty string of at most 64 characters`);
            return v as string;
          },
        },
        challengeTtl: {
          default: value(300),
          doc: "seconds a WebAuthn challenge is valid (single use, stored); also the browser's timeout. 1–86400",
          check: secondsIn(1, 86_400),
        },
        algorithms: {
          default: () => [...PASSKEY_ALGS],
          shown: 'all six',
          doc: `credential algorithms offered at registration, most preferred first, of ${PASSKEY_ALGS.map((a) => `\`${a}\``).join(', ')}; ML-DSA only where Node verifies it (≥ 24.7)`,
          check: listOf(() => PASSKEY_ALGS),
        },
        manageMaxAge: {
          default: value(600),
          doc: 'seconds: adding or removing a passkey needs a sign-in this recent; also how long a redeemed enrolment code lets its session add the first passkey. 1–86400',
          check: secondsIn(1, 86_400),
        },
      },
    },
    maxHeaderBytes: {
      // Room for an ML-DSA-87 composite DPoP proof (~11.3 KB) next to an ML-DSA-87 JWT access
      // token (~6.8 KB) and ordinary headers; Node's own default is 16 KiB.
      default: value(32 * 1024),
      doc: "positive integer: Node's limit on the request line plus all headers (`maxHeaderSize`; Node's own default 16384 is too small for an ML-DSA-87 DPoP proof beside an ML-DSA-87 token). At least `dpop.maxProofBytes` + 4096; beyond it the answer is 431 with an OAuth error naming this setting",
      check: positiveInt,
    },
    dpop: {
      entries: {
        maxProofBytes: {
          default: value(16 * 1024),
          doc: 'positive integer: larger `DPoP` headers are refused with `invalid_dpop_proof` (an ML-DSA-87 composite proof is ~11.4 KB)',
          check: positiveInt,
        },
        iatWindow: seconds1(
          "seconds a proof's `iat` may differ from now, either way; its `jti` is remembered that long",
          300,
        ),
        requireNonce: {
          default: value(false),
          doc: 'every proof must carry a current `DPoP-Nonce` (`use_dpop_nonce` otherwise; RFC 9449 §8)',
          check: trueOrFalse,
        },
        nonceLifetime: seconds1('seconds one nonce is current (the previous one still counts)', 300),
      },
    },
    par: {
      entries: {
        required: {
          default: value(false),
          doc: 'every client must use the PAR endpoint (`require_pushed_authorization_requests` in discovery); per client: the metadata member of that name',
          check: trueOrFalse,
        },
        requestUriLifetime: seconds1('seconds a `request_uri` stays usable (once)', 60),
      },
    },
    registration: {
      entries: {
        mode: {
          env: 'PQID_REGISTRATION',
          default: value('off'),
          doc: '`off` (no `/register`), `open` (anyone may register), or `token` (an initial access token is needed)',
          check: oneOf(() => ['off', 'open', 'token'] as const),
        },
        initialAccessToken: {
          env: 'PQID_REGISTRATION_TOKEN',
          default: unset,
          shown: '(unset)',
          doc: 'at least 16 characters; required by `token` mode as `Authorization: Bearer …` on `POST /register` (RFC 7591 §3)',
          check: (v, at) => {
            if (typeof v !== 'string' || v.length < 16)
              fail(`${at} must be at least 16 characters (a random token)`);
            return v as string;
          },
        },
        maxPerAddress: {
          default: value(20),
          doc: '`open` mode: registration requests (valid or not) per client address (IPv6: per /64) within `registration.window`, counted on every instance together; more get 429 with `Retry-After`',
          check: positiveInt,
        },
        window: seconds1('seconds, the sliding window of `registration.maxPerAddress`', 3600),
      },
    },
    resourceServers: {
      default: () => ({}) as Record<string, ResourceServerConfig>,
      shown: '`{}`',
      doc: 'object keyed by resource indicator (RFC 8707: absolute URI, no fragment, compared exactly): `{ "scope": "a b" or [..], "accessTokenSigningAlg": <registry alg>, "accessTokenFormat": "jwt" (default) or "reference", "accessTokenStorage": "stored" or "stateless" (default: that of the client, else `accessTokenStorage`) }`. Keys for the pinned algorithms are made at start',
      check: resourceServers,
      named: true,
    },
    backchannelLogout: {
      entries: {
        concurrency: {
          default: value(8),
          doc: 'logout-token POSTs in flight at once on one instance',
          check: positiveInt,
        },
        attempts: {
          default: value(3),
          doc: 'tries per RP (network errors, timeouts, 429 and 5xx are retried; 1 = no retry)',
          check: positiveInt,
        },
        timeout: {
          default: value(5),
          doc: 'seconds one POST may take (fractions allowed)',
          check: fractionalSeconds(3600),
        },
        retryDelay: {
          default: value(1),
          doc: 'seconds before the first retry, doubled for each further one (fractions allowed)',
          check: fractionalSeconds(3600),
        },
        sweepInterval: {
          default: value(30),
          doc: "seconds between looks at the shared outbox for due deliveries no live instance holds (also one at start): how soon a crashed instance's deliveries are resumed",
          check: fractionalSeconds(3600),
        },
      },
    },
    outbound: {
      entries: {
        allow: {
          env: 'PQID_OUTBOUND_ALLOW',
          default: () => [],
          shown: '`[]`',
          doc: "host names (exact), IP addresses and CIDR ranges that **dynamically registered** clients' `jwks_uri` and `backchannel_logout_uri` may reach although internal (loopback, private, link-local, …). A listed host name may also use http; a range allows its addresses over https (and http for an address literal). Empty: such clients reach public https URLs only. Operator-registered clients need no entry ([PROTOCOL.md](PROTOCOL.md#requests-the-provider-makes-for-clients)). The variable is comma- or space-separated and replaces the file's list",
          fromEnv: (text) => text.split(/[\s,]+/).filter(Boolean),
          check: (v, at) => {
            if (!Array.isArray(v) || v.some((e) => typeof e !== 'string' || e.trim() === ''))
              fail(`${at} must be an array of host names, IP addresses or CIDR ranges`);
            try {
              new OutboundAllowlist(v as string[]);
            } catch (e) {
              fail(`${at}: ${(e as Error).message}`);
            }
            return [...(v as string[])];
          },
        },
      },
    },
    requestObjects: {
      entries: {
        requireJti: {
          default: value(false),
          doc: 'refuse request objects (JAR, RFC 9101) without a `jti`, making every one single use; a `jti`, when present, is used once in any case ([PROTOCOL.md](PROTOCOL.md#pushed-authorization-requests-rfc-9126-and-signed-request-objects-rfc-9101))',
          check: trueOrFalse,
        },
      },
    },
  },
};
