/** docs/CONFIGURATION.md is generated from the configuration table: it must say what the table says. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configurationDoc } from '../src/config/docs.ts';
import { ENVIRONMENT } from '../src/config/environment.ts';
import { isSection, SETTINGS, type Section, type Setting } from '../src/config/table.ts';

const DOC = new URL('../../docs/CONFIGURATION.md', import.meta.url);

function paths(section: Section<unknown>, prefix = ''): Array<[string, Setting<unknown>]> {
  return Object.entries(section.entries as Record<string, Setting<unknown> | Section<unknown>>).flatMap(
    ([k, e]) =>
      isSection(e) ? paths(e, `${prefix}${k}.`) : [[`${prefix}${k}`, e] as [string, Setting<unknown>]],
  );
}

describe('docs/CONFIGURATION.md', () => {
  it('is what `npm run docs:config` generates from the table (run it after changing a setting)', () => {
    expect(readFileSync(DOC, 'utf8')).toBe(configurationDoc());
  });

  it('documents every setting with its variable, and every environment-only variable', () => {
    const doc = configurationDoc();
    for (const [path, s] of paths(SETTINGS as Section<unknown>)) {
      expect(s.doc.length, path).toBeGreaterThan(0);
      expect(doc, path).toContain(`| \`${path}\` | ${s.env ? `\`${s.env}\`` : '—'} |`);
    }
    for (const v of ENVIRONMENT) expect(doc).toContain(`| \`${v.name}\` |`);
  });
});
