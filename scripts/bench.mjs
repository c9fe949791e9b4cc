// `npm run bench`: the Node version check, then packages/jose/bench/main.ts. The benchmark is
// TypeScript that Node runs directly; a Node without type stripping (20) would refuse the file
// with its own stack trace before any check inside it could run.
import { requireSupportedNode } from './node-check.mjs';

await requireSupportedNode('npm run bench');
await import('../packages/jose/bench/main.ts');
