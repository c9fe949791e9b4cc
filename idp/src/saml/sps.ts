/**
 * Registered SAML service providers (`SamlServiceProvider` model, keyed by entityID). The
 * registration is the SP's whole trust configuration: the exact ACS URLs responses may go to,
 * the SLO URL, an optional certificate (then every request must be signed with it), the
 * algorithm that signs what we send it, which element is signed, whether our signatures carry
 * our certificate or only its key name, and the weakest sign-in it may receive.
 */
import { parseCertificate } from '@pqid/xmldsig';
import type { IdpContext } from '../context.ts';
import { IdpError } from '../errors/index.ts';
import { ACR_VALUES } from '../policy/acr.ts';
import {
  isSamlSigningAlg,
  isSlowSamlSigningAlg,
  SAML_SIGNING_ALGS,
  type SamlResponseAlg,
  slowHotPathRefusal,
} from '../policy/algorithms.ts';
import { type Model, model } from '../storage/model.ts';
import { isKnownClassRef } from './authn-context.ts';
import { AUTHN_CONTEXT, NAMEID_FORMAT_NAMES, type NameIdFormatName } from './constants.ts';

export type SignWhat = 'response' | 'assertion' | 'both';
export const SIGN_WHAT: readonly SignWhat[] = ['response', 'assertion', 'both'];
/**
 * What KeyInfo carries in our signatures: the certificate, or only its key name (the `kid` the
 * metadata's KeyDescriptor names too) for an SP that pins the certificate from the metadata.
 */
export type KeyInfoForm = 'certificate' | 'keyName';
export const KEY_INFO_FORMS: readonly KeyInfoForm[] = ['certificate', 'keyName'];

export interface SamlSpInput {
  entityId: string;
  /** Assertion Consumer Service URLs (HTTP-POST); the first is the default. */
  acsUrls: string[];
  /** Single Logout URL (LogoutResponses are POSTed there). */
  sloUrl?: string;
  /** PEM or base64 DER: when set, AuthnRequests and LogoutRequests must be signed with this key. */
  certificate?: string;
  signatureAlgorithm?: SamlResponseAlg;
  sign?: SignWhat;
  keyInfo?: KeyInfoForm;
  /**
   * An AuthnContextClassRef every sign-in for this SP must reach, whatever its AuthnRequests ask
   * (e.g. https://refeds.org/profile/mfa): the SAML counterpart of a client's default_acr_values,
   * but a floor the request cannot lower.
   */
  minimumAuthnContext?: string;
  nameIdFormat?: NameIdFormatName;
  name?: string;
}

/** A registration as stored (`SamlServiceProvider`, keyed by entityID). */
export interface SamlSp {
  entityId: string;
  acsUrls: string[];
  sloUrl?: string;
  certificate?: string;
  signatureAlgorithm: SamlResponseAlg;
  sign: SignWhat;
  /** Absent in registrations made before it existed: the certificate. */
  keyInfo?: KeyInfoForm;
  minimumAuthnContext?: string;
  nameIdFormat: NameIdFormatName;
  name?: string;
  createdAt: number;
}

export class SamlSpError extends IdpError<'ERR_SAML_SP'> {
  constructor(message: string) {
    super('ERR_SAML_SP', message, { status: 400 });
  }
}

function url(value: unknown, what: string, issuer: string): string {
  if (typeof value !== 'string') throw new SamlSpError(`${what} must be a URL`);
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new SamlSpError(`${what} is not a valid URL: ${value}`);
  }
  const local = u.hostname === 'localhost' || u.hostname === '127.0.0.1' || u.hostname === '[::1]';
  // Bearer assertions travel to this URL: https only, except for local development.
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && (local || issuer.startsWith('http:'))))
    throw new SamlSpError(`${what} must use https: ${value}`);
  if (u.hash) throw new SamlSpError(`${what} must not have a fragment`);
  return value;
}

export function validateSp(input: SamlSpInput, ctx: IdpContext): SamlSp {
  const issuer = ctx.config.issuer;
  if (typeof input.entityId !== 'string' || input.entityId.length === 0 || input.entityId.length > 1024)
    throw new SamlSpError('entityId must be a non-empty string (at most 1024 characters)');
  if (!Array.isArray(input.acsUrls) || input.acsUrls.length === 0)
    throw new SamlSpError('at least one AssertionConsumerService URL is required');
  const acsUrls = [...new Set(input.acsUrls.map((u, i) => url(u, `acsUrls[${i}]`, issuer)))];
  const alg = input.signatureAlgorithm ?? ctx.config.saml.defaultAlg;
  if (isSlowSamlSigningAlg(alg)) {
    // A signature per login: refused unless the operator accepted the cost (policy/algorithms.ts).
    if (!ctx.config.keys.allowSlhDsaHotPath)
      throw new SamlSpError(slowHotPathRefusal('signatureAlgorithm', alg));
  } else if (!isSamlSigningAlg(alg))
    throw new SamlSpError(`signatureAlgorithm must be one of ${SAML_SIGNING_ALGS.join(', ')}`);
  const sign = input.sign ?? 'both';
  if (!SIGN_WHAT.includes(sign)) throw new SamlSpError(`sign must be one of ${SIGN_WHAT.join(', ')}`);
  const keyInfo = input.keyInfo ?? 'certificate';
  if (!KEY_INFO_FORMS.includes(keyInfo))
    throw new SamlSpError(`keyInfo must be one of ${KEY_INFO_FORMS.join(', ')}`);
  const minimum = input.minimumAuthnContext;
  if (minimum !== undefined && (typeof minimum !== 'string' || !isKnownClassRef(minimum)))
    throw new SamlSpError(
      `minimumAuthnContext must be a class this IdP can reach: ${Object.values(AUTHN_CONTEXT).join(', ')}, or ${ACR_VALUES.join(', ')}`,
    );
  const nameIdFormat = input.nameIdFormat ?? 'persistent';
  if (!NAMEID_FORMAT_NAMES.includes(nameIdFormat))
    throw new SamlSpError(`nameIdFormat must be one of ${NAMEID_FORMAT_NAMES.join(', ')}`);
  let certificate: string | undefined;
  if (input.certificate !== undefined) {
    try {
      certificate = parseCertificate(input.certificate).pem;
    } catch (e) {
      throw new SamlSpError(`certificate: ${(e as Error).message}`);
    }
  }
  return {
    entityId: input.entityId,
    acsUrls,
    ...(input.sloUrl !== undefined ? { sloUrl: url(input.sloUrl, 'sloUrl', issuer) } : {}),
    ...(certificate ? { certificate } : {}),
    signatureAlgorithm: alg,
    sign,
    keyInfo,
    ...(minimum !== undefined ? { minimumAuthnContext: minimum } : {}),
    nameIdFormat,
    ...(input.name ? { name: input.name } : {}),
    createdAt: Math.floor(Date.now() / 1000),
  };
}

export class SamlSps {
  readonly #store: Model<SamlSp>;
  constructor(ctx: IdpContext) {
    this.#store = model<SamlSp>(ctx.storage, 'SamlServiceProvider');
  }
  find(entityId: string): Promise<SamlSp | undefined> {
    return this.#store.find(entityId);
  }
  async list(): Promise<SamlSp[]> {
    return (await this.#store.list()).map((r) => r.payload);
  }
  async save(sp: SamlSp): Promise<void> {
    await this.#store.upsert(sp.entityId, sp);
  }
  async remove(entityId: string): Promise<boolean> {
    const had = (await this.#store.find(entityId)) !== undefined;
    await this.#store.destroy(entityId);
    return had;
  }
}

/** Register (or replace) an SP and make sure its signing key exists before its first login. */
export async function registerSamlSp(ctx: IdpContext, input: SamlSpInput): Promise<SamlSp> {
  const sp = validateSp(input, ctx);
  await ctx.keys.ensure([sp.signatureAlgorithm], 'saml');
  await ctx.keys.ensure([ctx.keys.coldAlg()], 'root');
  await new SamlSps(ctx).save(sp);
  return sp;
}
