/**
 * The dependency rule of docs/ARCHITECTURE.md, checked by `npm run lint`: imports point down the
 * layers, never up, and nothing imports in a circle — between files or between folders.
 *
 * IdP layers, top to bottom. A module may import its own layer and any layer below it. Folders
 * that share a layer (oidc and saml) may not import each other.
 */
const IDP = '^idp/src/';
const LAYERS = [
  ['entry', ['main\\.ts$', 'cli\\.ts$', 'index\\.ts$', 'cli/']],
  ['app', ['app\\.ts$', 'server\\.ts$', 'health\\.ts$', 'seed\\.ts$', 'open-context\\.ts$']],
  ['protocols', ['oidc/', 'saml/']],
  ['sign-in', ['signin/']],
  ['http', ['http/']],
  ['ui', ['ui/']],
  ['context', ['context\\.ts$', 'metrics\\.ts$']],
  ['clients', ['clients/']],
  ['keys', ['keys/']],
  ['accounts', ['accounts/']],
  ['storage', ['storage/']],
  ['security', ['security/']],
  ['runtime', ['mldsa-backend\\.ts$']],
  ['config', ['config/']],
  ['crypto', ['crypto/']],
  ['policy', ['policy/', 'logging\\.ts$']],
  ['errors', ['errors/']],
];
const paths = (entries) => entries.map((e) => IDP + e);

const layerRules = LAYERS.slice(1).map(([name, own], i) => ({
  name: `idp-layer-${name}`,
  comment: `idp/src ${name} imports only its own layer and the ones below it (docs/ARCHITECTURE.md)`,
  severity: 'error',
  from: { path: paths(own) },
  to: { path: LAYERS.slice(0, i + 1).flatMap(([, above]) => paths(above)) },
}));

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
      from: { path: '^(idp|packages/xmldsig)/src/' },
      to: { circular: true },
    },
    {
      // Known: keys/resolve.ts needs jws/parse.ts and algorithms/ needs keys/mldsa-secret.ts, so
      // keys ↔ jws ↔ algorithms. Shown on every run; an error once those modules have moved.
      name: 'no-circular-folders-jose',
      comment: 'folders never import each other in a circle (a cycle of layers)',
      severity: 'warn',
      scope: 'folder',
      from: { path: '^packages/jose/src/' },
      to: { circular: true },
    },
    ...layerRules,
    {
      name: 'idp-protocols-independent',
      comment: 'OIDC and SAML share sign-in, clients and keys, not each other',
      severity: 'error',
      from: { path: '^idp/src/oidc/' },
      to: { path: '^idp/src/saml/' },
    },
    {
      name: 'idp-protocols-independent-saml',
      comment: 'OIDC and SAML share sign-in, clients and keys, not each other',
      severity: 'error',
      from: { path: '^idp/src/saml/' },
      to: { path: '^idp/src/oidc/' },
    },
    {
      name: 'packages-below-idp',
      comment: 'idp → packages → native: a library never imports the application',
      severity: 'error',
      from: { path: '^(packages|native)/' },
      to: { path: '^idp/' },
    },
    {
      name: 'jose-below-xmldsig',
      comment: '@pqid/xmldsig signs through @pqid/jose; @pqid/jose knows nothing of XML',
      severity: 'error',
      from: { path: '^packages/jose/' },
      to: { path: '^packages/xmldsig/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules|test)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    combinedDependencies: false,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'node', 'default'] },
  },
};
