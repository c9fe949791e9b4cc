/**
 * docs/CLIENTS.md, generated from the attribute table (`npm run docs:clients`); a test fails when
 * the file and the table disagree.
 */
import { type Attribute, CLIENT_ATTRIBUTES, MEMBERS } from './attributes.ts';

const INTRO = `# Client metadata

<!-- Generated from idp/src/clients/attributes.ts by \`npm run docs:clients\`: edit that, not this file. -->

What a relying party's registration may say, whichever way it comes in — \`pqid clients add\`
(flags, or a JSON document with \`--metadata\`), dynamic registration (RFC 7591) and its updates
(RFC 7592): every member is declared once, in \`idp/src/clients/attributes.ts\`, and all of them
go through the same checks ([PROTOCOL.md](PROTOCOL.md#dynamic-client-registration-rfc-7591-rfc-7592)).
Members a party may not set are ignored in what it sends, as are members this provider does not
know (RFC 7591 §2). Registration responses and \`pqid clients list --json\` show the stored
members in this order, except the digests of secrets; a generated \`client_secret\` is shown
once, when it is made.

| member | type | default | set by | meaning |
|---|---|---|---|---|
`;

const PARTIES: Record<string, string> = {
  operator: 'operator',
  registration: 'RFC 7591',
  update: 'RFC 7592',
};

function setBy(a: Attribute): string {
  if (a.setBy === 'provider') return 'the provider';
  return a.setBy.map((p) => PARTIES[p]).join(', ');
}

function defaultOf(a: Attribute): string {
  const when = a.when ? ` (with \`${a.when}\`)` : '';
  if (a.shown) return a.shown;
  if (a.default) return `\`${JSON.stringify(a.default({ defaultAlg: '' }))}\`${when}`;
  if (a.store === 'true') return 'false (stored only when true)';
  return '—';
}

function row(m: (typeof MEMBERS)[number]): string {
  const a: Attribute = CLIENT_ATTRIBUTES[m];
  const notes = [a.hidden ? 'never shown' : '', a.store === 'never' ? 'not stored' : ''].filter(Boolean);
  const meaning = notes.length ? `${a.doc} (${notes.join('; ')})` : a.doc;
  return `| \`${m}\` | ${a.type.name} | ${defaultOf(a)} | ${setBy(a)} | ${meaning} |`;
}

export function clientMetadataDoc(): string {
  return `${INTRO}${MEMBERS.map(row).join('\n')}\n`;
}
