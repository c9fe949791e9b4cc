/** Distinguished names: the small subset a SAML IdP needs (CN, O, OU, C). */
import { AttributeTypeAndValue, AttributeValue, Name, RelativeDistinguishedName } from '@peculiar/asn1-x509';
import { OID } from './oids.ts';

export interface DistinguishedName {
  commonName: string;
  organization?: string;
  organizationalUnit?: string;
  /** Two-letter country code (PrintableString). */
  country?: string;
}

const ORDER: [keyof DistinguishedName, string, string][] = [
  ['country', OID.country, 'C'],
  ['organization', OID.organization, 'O'],
  ['organizationalUnit', OID.organizationalUnit, 'OU'],
  ['commonName', OID.commonName, 'CN'],
];

export function buildName(dn: DistinguishedName | string): Name {
  const d: DistinguishedName = typeof dn === 'string' ? { commonName: dn } : dn;
  const rdns: RelativeDistinguishedName[] = [];
  for (const [key, type] of ORDER) {
    const v = d[key];
    if (!v) continue;
    const value =
      key === 'country' ? new AttributeValue({ printableString: v }) : new AttributeValue({ utf8String: v });
    rdns.push(new RelativeDistinguishedName([new AttributeTypeAndValue({ type, value })]));
  }
  return new Name(rdns);
}

/** "CN=…, O=…" in RFC 4514 order (most specific first), for display and matching in tests. */
export function formatName(name: Name): string {
  const short = new Map(ORDER.map(([, oid, s]) => [oid, s]));
  return [...name]
    .reverse()
    .flatMap((rdn) => [...rdn].map((atv) => `${short.get(atv.type) ?? atv.type}=${atv.value.toString()}`))
    .join(', ');
}
