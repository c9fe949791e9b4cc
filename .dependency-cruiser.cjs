/**
 * The dependency rules CI checks (`npm run deps`, part of `npm run lint`): no import cycles, and
 * imports that point one way: the IdP → the packages → the native binding, never back. Written
 * for the packages' sources; a rule for another source tree is one more entry (and its path in the
 * `deps` script).
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'A cycle (type-only imports included) means two modules are one: move what both need into a lower one.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'packages-not-to-idp',
      severity: 'error',
      comment: 'The libraries know nothing of the IdP, the load suite or the examples.',
      from: { path: '^packages/' },
      to: { path: '^(idp|load|examples|test)/' },
    },
    {
      name: 'jose-not-to-xmldsig',
      severity: 'error',
      comment: '@pqid/xmldsig signs through @pqid/jose, not the other way round.',
      from: { path: '^packages/jose/' },
      to: { path: '^packages/xmldsig/' },
    },
    {
      name: 'src-not-to-tests-or-benchmarks',
      severity: 'error',
      comment: 'What ships never imports its tests or benchmarks.',
      from: { path: '^packages/[^/]+/src/' },
      to: { path: '^packages/[^/]+/(test|bench)/' },
    },
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
    tsConfig: { fileName: 'tsconfig.base.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'types', 'default'] },
  },
};
