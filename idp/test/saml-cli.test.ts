/** `pqid saml-sps add --metadata|list|remove`, and SP metadata parsing, against a real data directory. */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { samlSps } from '../src/cli/saml-sps.ts';
import { parseSpMetadata } from '../src/saml/sp-metadata.ts';
import { tempDir } from './helpers.ts';

const SP_METADATA = `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="https://app.example.com/saml">
  <md:SPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol" AuthnRequestsSigned="false">
    <md:SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="https://app.example.com/saml/slo"/>
    <md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>
    <md:AssertionConsumerService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Artifact" Location="https://app.example.com/artifact" index="0"/>
    <md:AssertionConsumerService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="https://app.example.com/saml/acs2" index="2"/>
    <md:AssertionConsumerService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="https://app.example.com/saml/acs" index="1" isDefault="true"/>
  </md:SPSSODescriptor>
</md:EntityDescriptor>`;

let dir: { dir: string; cleanup: () => void };
const saved = { ...process.env };
beforeAll(() => {
  dir = tempDir();
  Object.assign(process.env, {
    PQID_DATA_DIR: dir.dir,
    PQID_KEK: randomBytes(32).toString('base64'),
    PQID_LOG_LEVEL: 'silent',
    PQID_DEMO: 'false',
  });
});
afterAll(() => {
  process.env = saved;
  dir.cleanup();
});

async function run(args: string[]): Promise<string> {
  let out = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((s) => {
    out += String(s);
    return true;
  });
  try {
    await samlSps.run(args);
  } finally {
    spy.mockRestore();
  }
  return out;
}

describe('SP metadata', () => {
  it('takes entityID, HTTP-POST ACS URLs (default first), SLO and NameID format', () => {
    expect(parseSpMetadata(SP_METADATA)).toEqual({
      entityId: 'https://app.example.com/saml',
      acsUrls: ['https://app.example.com/saml/acs', 'https://app.example.com/saml/acs2'],
      sloUrl: 'https://app.example.com/saml/slo',
      nameIdFormat: 'emailAddress',
    });
  });
  it('refuses DOCTYPEs and non-metadata', () => {
    expect(() => parseSpMetadata(`<!DOCTYPE x>${SP_METADATA}`)).toThrow(/DOCTYPE/);
    expect(() => parseSpMetadata('<a/>')).toThrow(/EntityDescriptor/);
  });
});

describe('pqid saml-sps', () => {
  it('adds from metadata, lists, removes', async () => {
    const file = join(dir.dir, 'sp.xml');
    writeFileSync(file, SP_METADATA);
    // ML-DSA-87 has no SAML key (nor is it one the server makes at start: the default and
    // saml.metadataAlgs): adding the SP would create and activate one, so it asks for --yes.
    const slow = ['add', '--metadata', file, '--alg', 'ML-DSA-87'];
    await expect(run(slow)).rejects.toThrow(
      /adding this SP creates and activates a new saml signing key for ML-DSA-87 \(none exists yet\).*--yes/,
    );
    expect(JSON.parse(await run(['list', '--json']))).toEqual([]);
    expect(JSON.parse(await run([...slow, '--yes']))).toMatchObject({ signatureAlgorithm: 'ML-DSA-87' });
    expect(await run(['remove', 'https://app.example.com/saml'])).toContain('removed');
    // RS256 is in saml.metadataAlgs: its key is made at every start, so no question.
    const args = ['add', '--metadata', file, '--alg', 'RS256', '--sign', 'assertion'];
    expect(JSON.parse(await run(['list', '--json']))).toEqual([]);
    const added = JSON.parse(await run(args));
    expect(added).toMatchObject({
      entityId: 'https://app.example.com/saml',
      signatureAlgorithm: 'RS256',
      sign: 'assertion',
    });
    expect(await run(['list'])).toContain('https://app.example.com/saml');
    const listed = JSON.parse(await run(['list', '--json']));
    expect(listed[0].nameIdFormat).toBe('emailAddress');
    expect(await run(['remove', 'https://app.example.com/saml'])).toContain('removed');
    expect(JSON.parse(await run(['list', '--json']))).toEqual([]);
  }, 30_000);
  it('usage errors', async () => {
    await expect(run(['add', '--metadata', 'x', '--alg', 'HS256'])).rejects.toThrow(
      /--alg must be one of ML-DSA-44, .*RS256, ES256 \(SLH-DSA-SHA2-128f, .* only with keys.allowSlhDsaHotPath\)/,
    );
    await expect(run(['frobnicate'])).rejects.toThrow(/unknown/);
  });
});
