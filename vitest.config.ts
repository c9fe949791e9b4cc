import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// The suite runs on the pinned Node 24 (its node:crypto ML-DSA is one of the backends compared).
// `npm test` puts it first on PATH; a bare `vitest` may pick up an older system Node instead: one
// line, not a stack trace.
if (Number(process.versions.node.split('.')[0]) < 24) {
  console.error(
    `pqid's tests run on Node 24, this is ${process.version}. To fix: run \`npm test\`, or \`node_modules/.bin/node node_modules/.bin/vitest run\` (npm install put Node 24 in node_modules/.bin).`,
  );
  process.exit(1);
}

// One config for the whole workspace: `npm test` runs every package's suite.
// Workspace packages resolve to their TypeScript sources so tests never run stale builds.
export default defineConfig({
  resolve: {
    alias: {
      '@pqid/jose': src('./packages/jose/src/index.ts'),
      '@pqid/xmldsig': src('./packages/xmldsig/src/index.ts'),
    },
  },
  test: {
    setupFiles: [src('./test/setup/experimental-warnings.ts')],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default'],
    projects: [
      { extends: true, test: { name: 'jose', include: ['packages/jose/test/**/*.test.ts'] } },
      { extends: true, test: { name: 'xmldsig', include: ['packages/xmldsig/test/**/*.test.ts'] } },
      { extends: true, test: { name: 'native', include: ['native/test/**/*.test.ts'] } },
      { extends: true, test: { name: 'idp', include: ['idp/test/**/*.test.ts'] } },
      { extends: true, test: { name: 'e2e', include: ['test/**/*.test.ts'] } },
    ],
  },
});
