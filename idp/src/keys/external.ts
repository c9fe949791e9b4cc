/**
 * External key providers (KMS/HSM) from `keys.signers`. A `module` signer is code of your own —
 * an AWS KMS, Google Cloud KMS or Vault adapter — loaded by path: it exports
 * `createKeyProvider(options, { env })` returning an ExternalKeyProvider (custody.ts). pqid ships
 * no cloud SDK; the adapter is a few dozen lines around the provider's Sign call (docs/KEYS.md,
 * "Keys in a KMS or HSM", has one for AWS KMS). A `pkcs11` signer is built in (pkcs11.ts).
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ExternalSignerConfig } from '../config/index.ts';
import { ConfigError } from '../config/index.ts';
import type { ExternalKeyProvider } from './custody.ts';

export interface ProviderContext {
  env: Record<string, string | undefined>;
  /** Relative module paths are resolved from here (the working directory). */
  cwd?: string;
}

/** What a `module` signer exports. */
export type CreateKeyProvider = (
  options: Record<string, unknown>,
  ctx: { env: Record<string, string | undefined> },
) => ExternalKeyProvider | Promise<ExternalKeyProvider>;

function checkProvider(name: string, p: unknown): ExternalKeyProvider {
  const provider = p as ExternalKeyProvider;
  if (typeof provider !== 'object' || provider === null || typeof provider.signer !== 'function')
    throw new ConfigError(`keys.signers.${name}: the provider has no signer(ref, alg) function`);
  if (provider.generate !== undefined && typeof provider.generate !== 'function')
    throw new ConfigError(`keys.signers.${name}: generate must be a function`);
  return provider;
}

async function openOne(name: string, cfg: ExternalSignerConfig, ctx: ProviderContext) {
  if (cfg.type === 'pkcs11') {
    const { openPkcs11Provider } = await import('./pkcs11.ts');
    return checkProvider(name, await openPkcs11Provider(name, cfg, ctx.env));
  }
  const url = pathToFileURL(resolve(ctx.cwd ?? process.cwd(), cfg.module)).href;
  let mod: { createKeyProvider?: CreateKeyProvider };
  try {
    mod = (await import(url)) as { createKeyProvider?: CreateKeyProvider };
  } catch (e) {
    throw new ConfigError(`keys.signers.${name}: cannot load ${cfg.module}: ${(e as Error).message}`);
  }
  if (typeof mod.createKeyProvider !== 'function')
    throw new ConfigError(`keys.signers.${name}: ${cfg.module} exports no createKeyProvider function`);
  return checkProvider(name, await mod.createKeyProvider(cfg.options ?? {}, { env: ctx.env }));
}

/** Every configured provider, opened; on a failure the ones already opened are closed. */
export async function openKeyProviders(
  signers: Record<string, ExternalSignerConfig>,
  ctx: ProviderContext,
): Promise<Map<string, ExternalKeyProvider>> {
  const out = new Map<string, ExternalKeyProvider>();
  try {
    for (const [name, cfg] of Object.entries(signers)) out.set(name, await openOne(name, cfg, ctx));
    return out;
  } catch (e) {
    for (const p of out.values()) await p.close?.().catch(() => {});
    throw e;
  }
}
