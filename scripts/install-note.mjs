// After `npm install` (the root package's postinstall): when npm itself ran on a Node below the
// range every package supports, npm printed an EBADENGINE warning per package. Say once what they
// mean here: npm install has put the pinned Node in node_modules/.bin, and every npm script (npm
// start, npm test, npx pqid) runs on it. Never fails the install.
import { readFileSync } from 'node:fs';

try {
  // npm's user agent names the Node that runs npm (this script runs on the pinned one).
  const npmNode = /\bnode\/v(\d+\.\d+\.\d+)/.exec(process.env.npm_config_user_agent ?? '')?.[1];
  const { unsupportedNode } = await import('../idp/src/node-version.ts');
  if (npmNode && unsupportedNode('pqid', npmNode)) {
    const root = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    console.log(
      `pqid: npm ran on Node v${npmNode}, below what pqid supports (${root.engines.node}), hence the EBADENGINE warnings above; the install put Node ${process.versions.node} in node_modules/.bin, and npm start, npm test and npx pqid run on it.`,
    );
  }
} catch {
  // no pinned Node (its package failed to install) or no sources: nothing useful to add
}
