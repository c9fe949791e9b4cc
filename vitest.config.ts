import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// One config for the whole workspace: `npm test` runs every package's suite.
// Workspace packages resolve to their TypeScript sources so tests never run stale builds.
export default defineConfig({
  resolve: {
    alias: {
      '@pqid/jose': src('./packages/jose/src/index.ts'),
    },
  },
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default'],
    projects: [
      { extends: true, test: { name: 'jose', include: ['packages/jose/test/**/*.test.ts'] } },
      { extends: true, test: { name: 'native', include: ['native/test/**/*.test.ts'] } },
      { extends: true, test: { name: 'e2e', include: ['test/**/*.test.ts'] } },
    ],
  },
});
