/** A real IdP for end-to-end tests: temp data dir, silent, no demo client, its own KEK. */
import { randomBytes } from 'node:crypto';
import { createIdp, type Idp } from '../../idp/src/app.ts';
import { loadConfig } from '../../idp/src/config/index.ts';

type Overrides = NonNullable<Parameters<typeof loadConfig>[0]>['overrides'];

/**
 * Created but not listening: register what the test needs, then `idp.app.listen(...)`.
 * `overrides` adds settings (resourceServers, say) to the test defaults; `kek` is for a test that
 * also runs the CLI on the same data directory.
 */
export async function createLocalIdp(
  dir: string,
  port: number,
  overrides: Overrides = {},
  kek = randomBytes(32).toString('base64'),
): Promise<{ idp: Idp; issuer: string }> {
  const issuer = `http://localhost:${port}`;
  const config = loadConfig({
    env: {},
    cwd: dir,
    overrides: {
      dataDir: dir,
      port,
      host: '127.0.0.1',
      issuer,
      logLevel: 'silent',
      demo: { enabled: false },
      ...overrides,
    },
  });
  const idp = await createIdp(config, {
    env: { PQID_KEK: kek },
    warn: () => {},
  });
  return { idp, issuer };
}
