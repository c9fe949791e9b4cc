import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// The suite needs Node 24 (node:crypto ML-DSA, node:sqlite). `npm test` puts the pinned Node from
// node_modules/.bin first on PATH; a bare `vitest` may pick up an older system Node instead.
if (Number(process.versions.node.split('.')[0]) < 24) {
  throw new Error(
    `pqid tests need Node 24, this is ${process.version}: run \`npm test\` or \`node_modules/.bin/node node_modules/.bin/vitest run\``,
  );
}

// One config for the whole workspace: `npm test` runs every package's suite.
// Workspace packages resolve to their TypeScript sources so tests never run stale builds.
export default defineConfig({
  resolve: {
    alias: {
      '@pqid/jose/cli': src('./packages/jose/src/cli/run.ts'),
      '@pqid/jose': src('./packages/jose/src/index.ts'),
      '@pqid/xmldsig': src('./packages/xmldsig/src/index.ts'),
    },
  },
  test: {
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
