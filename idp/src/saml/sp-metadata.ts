/**
 * Reading an SP's metadata (saml-metadata §2.4.4) into a registration: entityID, the HTTP-POST
 * AssertionConsumerServices (default first), a SingleLogoutService, the signing certificate and
 * a NameID format we support. Parsed through @pqid/xmldsig's parseXml (no DTDs, size cap).
 */
import { certificateBase64, parseXml } from '@pqid/xmldsig';
import { IdpError } from '../errors/index.ts';
import { BINDING, NS, nameIdFormatName } from './constants.ts';
import type { SamlSpInput } from './sps.ts';
import { attr, child, children, text, type XmlElement } from './xml.ts';

export class SpMetadataError extends IdpError<'ERR_METADATA'> {
  constructor(message: string) {
    super('ERR_METADATA', message, { status: 400 });
  }
}

export function parseSpMetadata(xml: string): SamlSpInput {
  let root: XmlElement;
  try {
    root = parseXml(xml, 1024 * 1024).documentElement as XmlElement;
  } catch (e) {
    throw new SpMetadataError(`SP metadata: ${(e as Error).message}`);
  }
  if (root.namespaceURI !== NS.md || root.localName !== 'EntityDescriptor')
    throw new SpMetadataError('SP metadata must be a single md:EntityDescriptor');
  const entityId = attr(root, 'entityID');
  if (!entityId) throw new SpMetadataError('EntityDescriptor has no entityID');
  const sso = child(root, NS.md, 'SPSSODescriptor');
  if (!sso) throw new SpMetadataError('EntityDescriptor has no SPSSODescriptor');

  const acs = children(sso, NS.md, 'AssertionConsumerService')
    .filter((e) => attr(e, 'Binding') === BINDING.post && attr(e, 'Location'))
    .sort((a, b) => {
      const d = Number(attr(b, 'isDefault') === 'true') - Number(attr(a, 'isDefault') === 'true');
      return d || Number(attr(a, 'index') ?? 0) - Number(attr(b, 'index') ?? 0);
    })
    .map((e) => attr(e, 'Location') as string);
  if (acs.length === 0)
    throw new SpMetadataError('SPSSODescriptor has no HTTP-POST AssertionConsumerService');

  const slo = children(sso, NS.md, 'SingleLogoutService');
  const sloUrl =
    slo.find((e) => attr(e, 'Binding') === BINDING.post) ??
    slo.find((e) => attr(e, 'Binding') === BINDING.redirect);

  const signingKeys = children(sso, NS.md, 'KeyDescriptor').filter((k) => {
    const use = attr(k, 'use');
    return use === undefined || use === 'signing';
  });
  const certs = signingKeys.flatMap((k) =>
    children(k, NS.ds, 'KeyInfo')
      .flatMap((ki) => children(ki, NS.ds, 'X509Data'))
      .flatMap((d) => children(d, NS.ds, 'X509Certificate')),
  );
  let certificate: string | undefined;
  const first = text(certs[0]);
  if (first) {
    try {
      certificate = certificateBase64(first);
    } catch (e) {
      throw new SpMetadataError(`SP signing certificate: ${(e as Error).message}`);
    }
  }
  const format = children(sso, NS.md, 'NameIDFormat')
    .map((e) => nameIdFormatName(text(e) ?? ''))
    .find((f) => f !== undefined);
  const sloLocation = sloUrl ? attr(sloUrl, 'Location') : undefined;
  return {
    entityId,
    acsUrls: acs,
    ...(sloLocation ? { sloUrl: sloLocation } : {}),
    ...(certificate ? { certificate } : {}),
    ...(format ? { nameIdFormat: format } : {}),
  };
}
