/** docs/CLIENTS.md is generated from the client attribute table: it must say what the table says. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLIENT_ATTRIBUTES, MEMBERS } from '../src/clients/attributes.ts';
import { clientMetadataDoc } from '../src/clients/docs.ts';

const DOC = new URL('../../docs/CLIENTS.md', import.meta.url);

describe('docs/CLIENTS.md', () => {
  it('is what `npm run docs:clients` generates from the table (run it after changing a member)', () => {
    expect(readFileSync(DOC, 'utf8')).toBe(clientMetadataDoc());
  });

  it('documents every member, in the order of the record', () => {
    const doc = clientMetadataDoc();
    const at = MEMBERS.map((m) => doc.indexOf(`| \`${m}\` |`));
    for (const [i, m] of MEMBERS.entries()) {
      expect(at[i], m).toBeGreaterThan(0);
      expect(CLIENT_ATTRIBUTES[m].doc.length, m).toBeGreaterThan(0);
    }
    expect(at).toEqual([...at].sort((a, b) => a - b));
  });
});
