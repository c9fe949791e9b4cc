/**
 * The dependency rule of docs/ARCHITECTURE.md, checked by `npm run deps` (part of `npm run lint`):
 * imports point down the layers, never up, and nothing imports in a circle — between files or
 * between folders. The IdP → the packages → the native binding, never back.
 * @type {import('dependency-cruiser').IConfiguration}
 *
 * IdP layers, top to bottom. A module may import its own layer and any layer below it. Folders
 * that share a layer (oidc and saml) may not import each other.
 */
const IDP = '^idp/src/';
const LAYERS = [
  [
    'entry',
    [
      'main\\.ts$',
      'start\\.ts$',
      'cli\\.ts$',
      'index\\.ts$',
      'supported-node\\.ts$',
      'cli/',
      'banner\\.ts$',
      'held-log\\.ts$',
      'shutdown\\.ts$',
      'experimental-warnings\\.ts$',
    ],
  ],
  ['app', ['app\\.ts$', 'server\\.ts$', 'health\\.ts$', 'landing\\.ts$', 'seed\\.ts$', 'open-context\\.ts$']],
  ['protocols', ['oidc/', 'saml/']],
  ['sign-in', ['signin/']],
  ['http', ['http/', 'operator-token\\.ts$']],
  ['ui', ['ui/']],
  ['context', ['context\\.ts$', 'metrics\\.ts$']],
  ['clients', ['clients/']],
  ['keys', ['keys/']],
  ['accounts', ['accounts/']],
  ['storage', ['storage/']],
  ['security', ['security/']],
  ['runtime', ['mldsa-backend\\.ts$', 'node-version\\.ts$', 'machine\\.ts$']],
  ['config', ['config/']],
  ['crypto', ['crypto/']],
  ['policy', ['policy/', 'logging\\.ts$']],
  ['errors', ['errors/']],
];

/**
 * @pqid/jose's layers, by the same rule: its entry point; the operations (JWT, key sets, DPoP,
 * token sizes, raw ML-DSA and SLH-DSA, JWE); JWS; key handles and JWK import; the algorithm
 * tables (the JWS registry, the HPKE suites); the backends and their settings; at the bottom
 * lib/ (bytes, JWK shapes, the handles' common part) and the errors.
 */
const JOSE = '^packages/jose/src/';
const JOSE_LAYERS = [
  ['entry', ['index\\.ts$']],
  [
    'operations',
    ['jwt\\.ts$', 'jwks\\.ts$', 'dpop\\.ts$', 'size\\.ts$', 'mldsa\\.ts$', 'slhdsa\\.ts$', 'jwe/'],
  ],
  ['jws', ['jws/']],
  ['keys', ['keys/']],
  ['algorithms', ['algorithms/', 'hpke/']],
  ['backends', ['backends/', 'configure\\.ts$']],
  ['lib', ['lib/', 'errors\\.ts$']],
];

/**
 * @pqid/xmldsig's layers: its entry point; SAML (messages, addressing, the SP guard and policy,
 * the node-saml adapter); XML-DSig signing and verification and certificate issuing and checking;
 * the signature algorithms, their key material and signers; the formats (X.509/SPKI/PEM, XML
 * parsing and its limits); at the bottom the key types, the URIs and the errors.
 */
const XMLDSIG = '^packages/xmldsig/src/';
const XMLDSIG_LAYERS = [
  ['entry', ['index\\.ts$']],
  [
    'saml',
    [
      'saml\\.ts$',
      'saml-message\\.ts$',
      'addressing\\.ts$',
      'sp-guard\\.ts$',
      'sp-policy\\.ts$',
      'node-saml\\.ts$',
    ],
  ],
  ['operations', ['sign\\.ts$', 'verify\\.ts$', 'x509/issue\\.ts$', 'x509/verify\\.ts$']],
  ['algorithms', ['algorithms/', 'signing-keys\\.ts$', 'x509/signers\\.ts$']],
  ['formats', ['x509/(parse|pem|spki|name|oids)\\.ts$', 'xml/']],
  ['lib', ['keys\\.ts$', 'uris\\.ts$', 'errors\\.ts$']],
];

/** Modules under `from` may not import modules under `to`. */
const forbid = (name, comment, from, to) => ({
  name,
  comment,
  severity: 'error',
  from: { path: from },
  to: { path: to },
});

/** One rule per layer below the top: its modules import no layer above it. */
const layerRules = (prefix, layers, rule) => {
  const paths = (entries) => entries.map((e) => prefix + e);
  return layers.slice(1).map(([name, own], i) =>
    forbid(
      `${rule}-${name}`,
      `${prefix.slice(1, -1)} ${name} imports only its own layer and the ones below it (docs/ARCHITECTURE.md)`,
      paths(own),
      layers.slice(0, i + 1).flatMap(([, above]) => paths(above)),
    ),
  );
};

/**
 * A module no layer names would escape the layer rules: a new file must be given its layer (here
 * and in docs/ARCHITECTURE.md) before it may import or be imported.
 */
const unlayered = (prefix, layers, rule) => {
  const all = layers.flatMap(([, own]) => own.map((e) => prefix + e));
  const comment = `every module of ${prefix.slice(1, -1)} belongs to one layer of docs/ARCHITECTURE.md`;
  return [
    { name: `${rule}-unlayered`, comment, severity: 'error', from: { path: prefix, pathNot: all }, to: {} },
    {
      name: `${rule}-unlayered-target`,
      comment,
      severity: 'error',
      from: { path: prefix },
      to: { path: prefix, pathNot: all },
    },
  ];
};

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'a module never imports itself back, directly or through others',
      severity: 'error',
      from: { path: '^(idp|packages/[^/]+)/src/' },
      to: { circular: true },
    },
    {
      name: 'no-circular-folders',
      comment: 'folders never import each other in a circle (a cycle of layers)',
      severity: 'error',
      scope: 'folder',
      from: { path: '^(idp|packages/[^/]+)/src/' },
      to: { circular: true },
    },
    ...layerRules(IDP, LAYERS, 'idp-layer'),
    ...layerRules(JOSE, JOSE_LAYERS, 'jose-layer'),
    ...layerRules(XMLDSIG, XMLDSIG_LAYERS, 'xmldsig-layer'),
    ...unlayered(IDP, LAYERS, 'idp-layer'),
    ...unlayered(JOSE, JOSE_LAYERS, 'jose-layer'),
    ...unlayered(XMLDSIG, XMLDSIG_LAYERS, 'xmldsig-layer'),
    forbid(
      'idp-protocols-independent',
      'OIDC and SAML share sign-in, clients and keys, not each other',
      '^idp/src/oidc/',
      '^idp/src/saml/',
    ),
    forbid(
      'idp-protocols-independent-saml',
      'OIDC and SAML share sign-in, clients and keys, not each other',
      '^idp/src/saml/',
      '^idp/src/oidc/',
    ),
    forbid(
      'packages-not-to-idp',
      'The libraries know nothing of the IdP, the load suite or the examples.',
      '^packages/',
      '^(idp|load|examples|test)/',
    ),
    forbid(
      'jose-not-to-xmldsig',
      '@pqid/xmldsig signs through @pqid/jose, not the other way round.',
      '^packages/jose/',
      '^packages/xmldsig/',
    ),
    forbid(
      'src-not-to-tests-or-benchmarks',
      'What ships never imports its tests or benchmarks.',
      '^(idp|packages/[^/]+)/src/',
      '^(idp|packages/[^/]+)/(test|bench)/',
    ),
    {
      name: 'packages-through-entry-points',
      severity: 'error',
      comment: 'One package uses another through its published entry point, not its files.',
      from: { path: '^packages/([^/]+)/src/' },
      to: {
        path: '^packages/([^/]+)/',
        pathNot: ['^packages/$1/', '^packages/[^/]+/dist/index\\.(d\\.ts|js)$'],
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules|test)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    combinedDependencies: false,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'types', 'default'] },
  },
};

// The layer tables, for test/architecture.test.ts, which holds them to docs/ARCHITECTURE.md. Not
// enumerable: dependency-cruiser refuses a configuration with members it does not know.
Object.defineProperty(module.exports, 'layers', {
  value: {
    [IDP]: LAYERS,
    [JOSE]: JOSE_LAYERS,
    [XMLDSIG]: XMLDSIG_LAYERS,
  },
});
