/**
 * Settings made of named entries: the external key providers (`keys.signers`) and the resource
 * servers (`resourceServers`). Each entry is checked whole; layers add or replace entries.
 */
import { algorithms } from '@pqid/jose';
import {
  ACCESS_TOKEN_STORAGES,
  type AccessTokenStorage,
  type ExternalSignerConfig,
  type ProtocolConfig,
  type ResourceServerConfig,
} from './types.ts';
import { fail, isObject } from './values.ts';

function parseSigner(name: string, v: unknown): ExternalSignerConfig {
  const at = `keys.signers.${name}`;
  if (!isObject(v)) fail(`${at} must be an object`);
  const o = v as Record<string, unknown>;
  const str = (k: string) => {
    if (typeof o[k] !== 'string' || o[k] === '') fail(`${at}.${k} must be a non-empty string`);
    return o[k] as string;
  };
  const only = (allowed: string[]) => {
    for (const k of Object.keys(o)) if (!allowed.includes(k)) fail(`${at}: unknown setting "${k}"`);
  };
  if (o.type === 'module') {
    only(['type', 'module', 'options']);
    if (o.options !== undefined && !isObject(o.options)) fail(`${at}.options must be an object`);
    return {
      type: 'module',
      module: str('module'),
      ...(o.options ? { options: o.options as Record<string, unknown> } : {}),
    };
  }
  if (o.type === 'pkcs11') {
    only(['type', 'library', 'token', 'pinEnv', 'env']);
    if (
      o.env !== undefined &&
      (!isObject(o.env) || !Object.values(o.env).every((x) => typeof x === 'string'))
    )
      fail(`${at}.env must map variable names to strings`);
    return {
      type: 'pkcs11',
      library: str('library'),
      token: str('token'),
      pinEnv: str('pinEnv'),
      ...(o.env ? { env: o.env as Record<string, string> } : {}),
    };
  }
  return fail(`${at}.type must be "module" or "pkcs11"`);
}

/** `keys.signers`: external key providers by name. */
export function signers(v: unknown, at: string): Record<string, ExternalSignerConfig> {
  if (!isObject(v)) fail(`${at} must be an object of named signers`);
  const out: Record<string, ExternalSignerConfig> = {};
  for (const [name, sv] of Object.entries(v as Record<string, unknown>)) {
    if (name === 'sealed') fail('keys.signers: "sealed" is the built-in custody; choose another name');
    out[name] = parseSigner(name, sv);
  }
  return out;
}

/** An absolute URI without fragment (RFC 8707 §2), as written (it is compared exactly). */
export function checkResourceUri(uri: unknown): string | undefined {
  if (typeof uri !== 'string' || uri === '' || uri.length > 2048) return undefined;
  try {
    const url = new URL(uri);
    if (url.hash || uri.includes('#')) return undefined;
  } catch {
    return undefined;
  }
  return uri;
}

function resourceServer(uri: string, raw: unknown): ResourceServerConfig {
  const name = `resourceServers[${JSON.stringify(uri)}]`;
  if (checkResourceUri(uri) === undefined)
    fail(`${name}: a resource indicator must be an absolute URI without a fragment`);
  if (!isObject(raw)) fail(`${name} must be an object`);
  const rs: ResourceServerConfig = { uri, scope: [], accessTokenFormat: 'jwt' };
  for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
    if (k === 'scope') {
      const list = typeof v === 'string' ? v.split(' ').filter(Boolean) : v;
      if (
        !Array.isArray(list) ||
        list.some((s) => typeof s !== 'string' || !/^[\x21\x23-\x5b\x5d-\x7e]+$/.test(s))
      )
        fail(`${name}.scope must be a space-separated string or an array of scope tokens`);
      rs.scope = [...new Set(list as string[])];
    } else if (k === 'accessTokenSigningAlg') {
      if (typeof v !== 'string' || !algorithms().includes(v))
        fail(`${name}.accessTokenSigningAlg must be one of ${algorithms().join(', ')}`);
      rs.accessTokenSigningAlg = v as string;
    } else if (k === 'accessTokenFormat') {
      if (v !== 'jwt' && v !== 'reference') fail(`${name}.accessTokenFormat must be jwt or reference`);
      rs.accessTokenFormat = v as 'jwt' | 'reference';
    } else if (k === 'accessTokenStorage') {
      if (!ACCESS_TOKEN_STORAGES.includes(v as AccessTokenStorage))
        fail(`${name}.accessTokenStorage must be ${ACCESS_TOKEN_STORAGES.join(' or ')}`);
      rs.accessTokenStorage = v as AccessTokenStorage;
    } else {
      fail(`${name}: unknown setting "${k}"`);
    }
  }
  return rs;
}

/** `resourceServers`: keyed by resource indicator. */
export function resourceServers(v: unknown, _at: string): Record<string, ResourceServerConfig> {
  if (!isObject(v)) fail('resourceServers must be an object keyed by resource indicator');
  const out: Record<string, ResourceServerConfig> = {};
  for (const [uri, raw] of Object.entries(v as Record<string, unknown>)) out[uri] = resourceServer(uri, raw);
  return out;
}

/** Algorithms the configuration pins for resource servers: their keys are made at start. */
export const resourceServerAlgs = (cfg: ProtocolConfig): string[] => [
  ...new Set(
    Object.values(cfg.resourceServers).flatMap((r) =>
      r.accessTokenSigningAlg === undefined ? [] : [r.accessTokenSigningAlg],
    ),
  ),
];
