/**
 * docs/CONFIGURATION.md, generated from the table (`npm run docs:config`); a test fails when the
 * file and the table disagree.
 */
import { ENVIRONMENT } from './environment.ts';
import { isSection, SETTINGS, type Section, type Setting } from './table.ts';

const INTRO = `# Configuring the pqid IdP

<!-- Generated from idp/src/config/table.ts and environment.ts by \`npm run docs:config\`: edit those, not this file. -->

Configuration is read once, at start, in layers — later layers win:

1. embedded defaults (everything below has one; \`npm start\` needs no configuration at all);
2. a JSON file: \`PQID_CONFIG=/path/config.json\`, or \`node idp/dist/main.js /path/config.json\`;
   the CLI takes \`--config /path/config.json\` or \`PQID_CONFIG\`;
3. environment variables (\`PQID_*\`), for the settings that have one.

Everything is validated before anything is opened or listened on: a bad value stops the start
with \`pqid: configuration error: <setting>: <what is wrong>\` and exit status 2. Unknown settings
in the file are errors too (a typo must not silently fall back to a default). Every setting, its
variable, default and meaning is declared once, in \`idp/src/config/table.ts\`; settings that
constrain each other are checked in \`idp/src/config/load.ts\`.
`;

const GROUPS: Array<{ title: string; keys: string[]; intro?: string }> = [
  {
    title: 'Server and storage',
    keys: [
      'port',
      'host',
      'trustProxy',
      'issuer',
      'dataDir',
      'databaseUrl',
      'metricsToken',
      'purgeInterval',
      'clientCacheTtl',
      'bodyLimit',
      'logLevel',
    ],
  },
  {
    title: 'Tokens and signing',
    keys: [
      'defaultSigningAlg',
      'accessTokenSigningAlg',
      'accessTokenHeaderBudget',
      'accessTokenStorage',
      'ttl',
      'keys',
    ],
    intro: 'Which key signs what, and for how long tokens live: [KEYS.md](KEYS.md).',
  },
  { title: 'Sign-in', keys: ['loginLimits', 'passkeys', 'demo'] },
  { title: 'SAML', keys: ['saml'], intro: 'The SAML 2.0 IdP: [SAML.md](SAML.md).' },
  {
    title: 'Protocol extensions',
    keys: [
      'maxHeaderBytes',
      'dpop',
      'par',
      'requestObjects',
      'registration',
      'resourceServers',
      'backchannelLogout',
      'outbound',
    ],
    intro:
      'DPoP, pushed authorization requests, dynamic registration, resource servers (RFC 8707) and back-channel logout; what each does: [PROTOCOL.md](PROTOCOL.md).',
  },
];

const cell = (s: string) => s.replace(/\|/g, '\\|');

function shownDefault(s: Setting<unknown>): string {
  if (s.shown !== undefined) return s.shown;
  const v = s.default();
  if (v === undefined) return '(unset)';
  return `\`${typeof v === 'string' ? v : JSON.stringify(v)}\``;
}

function rows(entry: Setting<unknown> | Section<unknown>, path: string): string[] {
  if (isSection(entry))
    return Object.entries(entry.entries as Record<string, Setting<unknown> | Section<unknown>>).flatMap(
      ([k, e]) => rows(e, `${path}.${k}`),
    );
  const env = entry.env ? `\`${entry.env}\`` : '—';
  return [`| \`${path}\` | ${env} | ${cell(shownDefault(entry))} | ${cell(entry.doc)} |`];
}

function settingsTables(): string {
  const entries = SETTINGS.entries as Record<string, Setting<unknown> | Section<unknown>>;
  const listed = GROUPS.flatMap((g) => g.keys);
  const missing = Object.keys(entries).filter((k) => !listed.includes(k));
  if (missing.length) throw new Error(`settings in no documentation group: ${missing.join(', ')}`);
  return GROUPS.map((g) =>
    [
      `### ${g.title}`,
      '',
      ...(g.intro ? [g.intro, ''] : []),
      '| setting (file) | environment | default | validation / meaning |',
      '| --- | --- | --- | --- |',
      ...g.keys.flatMap((k) => rows(entries[k] as Setting<unknown> | Section<unknown>, k)),
      '',
    ].join('\n'),
  ).join('\n');
}

function environmentTable(): string {
  return [
    '### Only in the environment',
    '',
    '| variable | read by | meaning |',
    '| --- | --- | --- |',
    ...ENVIRONMENT.map((v) => `| \`${v.name}\` | ${v.readBy ?? 'the IdP'} | ${cell(v.doc)} |`),
    '',
  ].join('\n');
}

const OUTRO = `## File format

One JSON object; every key optional. Example (\`config.json\`):

\`\`\`json
{
  "issuer": "https://id.example.com",
  "host": "0.0.0.0",
  "port": 8080,
  "dataDir": "/var/lib/pqid",
  "defaultSigningAlg": "ML-DSA-65",
  "ttl": { "accessToken": 900, "idToken": 900, "session": 28800 },
  "keys": {
    "placement": { "accessToken": "ML-DSA-44", "cold": "ML-DSA-87" },
    "prepublish": 7200
  },
  "loginLimits": { "window": 600, "maxFailuresPerAccount": 5, "maxFailuresPerAddress": 100 },
  "resourceServers": {
    "https://api.example.com/": { "scope": "orders:read", "accessTokenSigningAlg": "ML-DSA-65-Ed25519" }
  },
  "registration": { "mode": "token" },
  "demo": { "enabled": false }
}
\`\`\`

\`\`\`sh
PQID_CONFIG=config.json PQID_KEK="$(cat /run/secrets/pqid-kek)" PQID_REGISTRATION_TOKEN="$(cat /run/secrets/pqid-iat)" npm start
PQID_CONFIG=config.json PQID_KEK="$(cat /run/secrets/pqid-kek)" npm run pqid -- keys list
\`\`\`

## Notes

- **A second start** on the same data directory reuses its keys, users and clients; the demo
  seed only creates what is missing.
- **The CLI** (\`npm run pqid -- keys …\`, \`… clients …\`) loads exactly this configuration, so it
  works on the server's database; with SQLite it works whether the server runs or not.
- **Behind a reverse proxy**: set \`issuer\` to the public https URL (cookies are \`Secure\` when
  the issuer is https), and list the proxy in \`trustProxy\`, so that login limits count each
  client's address rather than the proxy's one.
- **Login limits** count failures in the database (\`login_failures\`, one row per failure, on
  SQLite and PostgreSQL), so several instances share one budget per account and per address.
`;

/** The whole of docs/CONFIGURATION.md. */
export function configurationDoc(): string {
  return [INTRO, '## Settings', '', settingsTables(), environmentTable(), OUTRO].join('\n');
}
