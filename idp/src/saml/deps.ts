/** What the SAML endpoints share: the context, the sign-in service, the IdP's URLs, keys and SPs. */
import { endpoints, type IdpContext } from '../context.ts';
import type { SignIn } from '../signin/sign-in.ts';
import { SamlCertificates } from './certificates.ts';
import { type SamlEndpoints, samlEndpoints } from './endpoints.ts';
import { SamlSps } from './sps.ts';

export interface SamlDeps {
  ctx: IdpContext;
  signIn: SignIn;
  /** The IdP's entityID and endpoint URLs. */
  ep: SamlEndpoints;
  /** The path the routes are mounted under (the issuer's path). */
  prefix: string;
  certs: SamlCertificates;
  sps: SamlSps;
}

export function samlDeps(ctx: IdpContext, signIn: SignIn): SamlDeps {
  return {
    ctx,
    signIn,
    ep: samlEndpoints(ctx.config),
    prefix: endpoints(ctx.config.issuer).prefix,
    certs: new SamlCertificates(ctx),
    sps: new SamlSps(ctx),
  };
}

/** Every algorithm that signs for an SP or the metadata: each needs a key before the first login. */
export async function samlAlgs(deps: SamlDeps): Promise<string[]> {
  const fromSps = (await deps.sps.list()).map((s) => s.signatureAlgorithm);
  return [...new Set([...deps.ctx.config.saml.metadataAlgs, ...fromSps])];
}
