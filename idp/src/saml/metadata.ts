/**
 * `/saml/metadata`: the IdP's EntityDescriptor (saml-metadata §2.4.3), with one KeyDescriptor per
 * published (next or active) signing key of every SAML algorithm in use — so an SP sees a
 * rotated-in key before it signs — SSO and SLO endpoints for both bindings, and the NameID
 * formats. Signed by the root key on the cold path and cached until the set of keys changes.
 */
import { SIGNATURE_URIS, signXmlAsync, type XmlSignatureAlg } from '@pqid/xmldsig';
import type { SamlCertificates } from './certificates.ts';
import { BINDING, NAMEID_FORMAT, NAMEID_FORMAT_NAMES } from './constants.ts';
import { certificateBody, type SamlEndpoints } from './endpoints.ts';
import { esc, instant, samlId } from './xml.ts';

export interface MetadataInput {
  endpoints: SamlEndpoints;
  algs: readonly string[];
  validitySeconds: number;
}

export class MetadataCache {
  readonly #certs: SamlCertificates;
  #cached: { key: string; xml: string; refreshAt: number } | undefined;
  #building: Promise<string> | undefined;

  constructor(certs: SamlCertificates) {
    this.#certs = certs;
  }

  async get(input: MetadataInput): Promise<string> {
    const published = await this.#certs.published(input.algs);
    const root = await this.#certs.root();
    const key = JSON.stringify([root.kid, published.map((p) => [p.kid, p.status])]);
    const now = Date.now();
    if (this.#cached && this.#cached.key === key && now < this.#cached.refreshAt) return this.#cached.xml;
    // One signature for concurrent first requests.
    this.#building ??= (async () => {
      const xml = await signXmlAsync(buildMetadata(input, published, now), {
        key: root.key,
        certificate: root.certificate,
      });
      // Re-sign at half the validity, so a cached copy never outlives validUntil.
      this.#cached = { key, xml, refreshAt: now + (input.validitySeconds * 1000) / 2 };
      return xml;
    })().finally(() => {
      this.#building = undefined;
    });
    return this.#building;
  }
}

export function buildMetadata(
  input: MetadataInput,
  published: Array<{ alg: string; kid: string; certificate: string }>,
  now: number,
): string {
  const ep = input.endpoints;
  const keys = published
    .map(
      (p) =>
        `<md:KeyDescriptor use="signing"><ds:KeyInfo><ds:KeyName>${esc(p.kid)}</ds:KeyName><ds:X509Data><ds:X509Certificate>${certificateBody(p.certificate)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`,
    )
    .join('');
  const methods = [...new Set(published.map((p) => p.alg))]
    .filter((a): a is XmlSignatureAlg => a in SIGNATURE_URIS)
    .map((a) => `<alg:SigningMethod Algorithm="${SIGNATURE_URIS[a]}"/>`)
    .join('');
  const services = (name: string, url: string) =>
    `<md:${name} Binding="${BINDING.redirect}" Location="${esc(url)}"/><md:${name} Binding="${BINDING.post}" Location="${esc(url)}"/>`;
  return (
    `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" xmlns:alg="urn:oasis:names:tc:SAML:metadata:algsupport" ID="${samlId()}" entityID="${esc(ep.entityId)}" validUntil="${instant(now + input.validitySeconds * 1000)}">` +
    `<md:Extensions><alg:DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"/>${methods}</md:Extensions>` +
    `<md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol" WantAuthnRequestsSigned="false">` +
    keys +
    services('SingleLogoutService', ep.slo) +
    NAMEID_FORMAT_NAMES.map((n) => `<md:NameIDFormat>${NAMEID_FORMAT[n]}</md:NameIDFormat>`).join('') +
    services('SingleSignOnService', ep.sso) +
    '</md:IDPSSODescriptor></md:EntityDescriptor>'
  );
}
