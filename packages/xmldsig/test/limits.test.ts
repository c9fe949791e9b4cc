/**
 * The XML work limits (src/xml/limits.ts): the one-pass scanner counts exactly what a parser
 * finds (checked against @xmldom/xmldom on the shared samples and on random trees), each limit
 * refuses alone at one past its value and admits its value, anything the scanner cannot tokenize
 * is refused, and every decoder that takes untrusted SAML (decodeSamlMessage on both bindings,
 * verifySamlResponse) refuses oversized shapes with ERR_XMLDSIG_XML_LIMIT — a code only the
 * scanner throws, so the refusal happened before any parser ran.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import {
  checkXmlLimits,
  DEFAULT_SAML_LIMITS,
  decodeSamlMessage,
  samlLimits,
  verifySamlResponse,
  type XmlLimits,
} from '@pqid/xmldsig';
import { DOMParser, type Element, type Node } from '@xmldom/xmldom';
import * as fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Signer, samlResponse, signer } from './helpers/fixtures.ts';

const UNLIMITED: XmlLimits = {
  maxElements: 1e9,
  maxDepth: 1e9,
  maxChildren: 1e9,
  maxAttributes: 1e9,
  maxTotalAttributes: 1e9,
};

/** The same four numbers, counted on a DOM. */
function domShape(xml: string) {
  const doc = new DOMParser().parseFromString(xml, 'text/xml');
  const shape = { elements: 0, depth: 0, children: 0, attributes: 0, totalAttributes: 0 };
  const walk = (el: Element, depth: number) => {
    shape.elements++;
    shape.depth = Math.max(shape.depth, depth);
    shape.attributes = Math.max(shape.attributes, el.attributes.length);
    shape.totalAttributes += el.attributes.length;
    let kids = 0;
    for (let n: Node | null = el.firstChild; n; n = n.nextSibling)
      if (n.nodeType === 1) {
        kids++;
        walk(n as Element, depth + 1);
      }
    shape.children = Math.max(shape.children, kids);
  };
  walk(doc.documentElement as Element, 1);
  // The root is a child of the document: one sibling.
  shape.children = Math.max(shape.children, 1);
  return shape;
}

const code = (f: () => unknown): string | undefined => {
  try {
    f();
  } catch (e) {
    return (e as { code?: string }).code;
  }
  return undefined;
};

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.xml') ? [p] : [];
  });
}

describe('checkXmlLimits counts what a parser finds', () => {
  const samples = files(new URL('../../../test/vectors/saml-xml', import.meta.url).pathname).filter(
    (f) => !f.includes('multiple-root-elements'), // deliberately not well-formed
  );

  it('on every SAML sample in test/vectors (node-saml, xml-crypto), all well within the defaults', () => {
    expect(samples.length).toBeGreaterThan(30);
    for (const f of samples) {
      const xml = readFileSync(f, 'utf8');
      const shape = checkXmlLimits(xml, UNLIMITED);
      expect(shape, f).toEqual(domShape(xml));
      // Real messages are nowhere near the limits: at least 2.5 times the headroom on every measure.
      expect(shape.elements * 2.5, f).toBeLessThan(DEFAULT_SAML_LIMITS.maxElements);
      expect(shape.children * 10, f).toBeLessThan(DEFAULT_SAML_LIMITS.maxChildren);
      expect(shape.depth * 2.5, f).toBeLessThan(DEFAULT_SAML_LIMITS.maxDepth);
      expect(shape.attributes * 4, f).toBeLessThan(DEFAULT_SAML_LIMITS.maxAttributes);
      expect(shape.totalAttributes * 4, f).toBeLessThan(DEFAULT_SAML_LIMITS.maxTotalAttributes);
    }
  });

  it('admit a doubly signed Response with a group claim of 150 values (Azure AD’s SAML cap)', () => {
    const sig =
      '<ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:SignedInfo><ds:CanonicalizationMethod Algorithm="c"/>' +
      '<ds:SignatureMethod Algorithm="s"/><ds:Reference URI="#r"><ds:Transforms><ds:Transform Algorithm="e"/>' +
      '<ds:Transform Algorithm="c"/></ds:Transforms><ds:DigestMethod Algorithm="d"/><ds:DigestValue>x</ds:DigestValue>' +
      '</ds:Reference></ds:SignedInfo><ds:SignatureValue>x</ds:SignatureValue><ds:KeyInfo><ds:X509Data>' +
      '<ds:X509Certificate>x</ds:X509Certificate></ds:X509Data></ds:KeyInfo></ds:Signature>';
    const groups = `<saml:Attribute Name="groups">${'<saml:AttributeValue>g</saml:AttributeValue>'.repeat(150)}</saml:Attribute>`;
    const xml = samlResponse()
      .replace('</saml:Issuer>', `</saml:Issuer>${sig}`)
      .replace('</saml:AttributeStatement>', `${groups}</saml:AttributeStatement>`)
      .replace('</saml:Issuer><saml:Subject>', `</saml:Issuer>${sig}<saml:Subject>`);
    const shape = checkXmlLimits(xml);
    expect(shape).toEqual(domShape(xml));
    expect(shape.children).toBe(150);
    expect(shape.elements).toBe(198);
  });

  it('on random trees with comments, CDATA, processing instructions and awkward attribute values', () => {
    type Tree = { attrs: number; kids: Tree[]; text: string };
    const tree: fc.Memo<Tree> = fc.memo((d) =>
      fc.record({
        attrs: fc.nat({ max: 6 }),
        kids: d > 1 ? fc.array(tree(d - 1), { maxLength: 5 }) : fc.constant([]),
        text: fc.constantFrom('', 'x', ' > ', '<!-- <a> -->', '<![CDATA[<b/>]]>', '<?pi <c/> ?>', '&amp;'),
      }),
    );
    const render = (t: Tree, i = 0): string => {
      const attrs = Array.from({ length: t.attrs }, (_, k) =>
        k % 2 ? ` a${k}='v>"${k}'` : ` a${k} = "v>'${k}"`,
      ).join('');
      const body = t.text + t.kids.map((k, j) => render(k, i + j + 1)).join('');
      return body === '' && i % 2 ? `<e${i}${attrs}/>` : `<e${i}${attrs}>${body}</e${i}>`;
    };
    fc.assert(
      fc.property(tree(5), (t) => {
        const xml = `<?xml version="1.0"?>\n${render(t)}`;
        expect(checkXmlLimits(xml, UNLIMITED)).toEqual(domShape(xml));
      }),
      { numRuns: 300, seed: 15 },
    );
  });
});

describe('each limit alone', () => {
  const limits: XmlLimits = {
    maxElements: 10,
    maxDepth: 4,
    maxChildren: 5,
    maxAttributes: 3,
    maxTotalAttributes: 5,
  };
  const cases: Array<[keyof XmlLimits, string, string]> = [
    ['maxElements', `<r>${'<g><a/></g>'.repeat(4)}<a/></r>`, `<r>${'<g><a/></g>'.repeat(4)}<a/><a/></r>`],
    ['maxDepth', '<a><b><c><d/></c></b></a>', '<a><b><c><d><e/></d></c></b></a>'],
    ['maxChildren', `<r>${'<a/>'.repeat(5)}</r>`, `<r>${'<a/>'.repeat(6)}</r>`],
    ['maxAttributes', '<r a="1" b="2" xmlns:c="urn:c"/>', '<r a="1" b="2" xmlns:c="urn:c" d="4"/>'],
    [
      'maxTotalAttributes',
      '<r a="1"><s a="1" b="2"/><s a="1" b="2"/></r>',
      '<r a="1"><s a="1" b="2"/><s a="1" b="2" c="3"/></r>',
    ],
  ];
  it.each(cases)('%s: admits its value, refuses one more with ERR_XMLDSIG_XML_LIMIT', (name, at, over) => {
    expect(() => checkXmlLimits(at, limits)).not.toThrow();
    expect(code(() => checkXmlLimits(over, limits))).toBe('ERR_XMLDSIG_XML_LIMIT');
    expect(() => checkXmlLimits(over, limits)).toThrow(new RegExp(`limit ${name}`));
  });

  it('samlLimits merges over the defaults and refuses nonsense', () => {
    expect(samlLimits({ maxChildren: 7 })).toEqual({ ...DEFAULT_SAML_LIMITS, maxChildren: 7 });
    expect(() => samlLimits({ maxDepth: 0 })).toThrow(/positive integer/);
    expect(() => samlLimits({ maxElements: 1.5 })).toThrow(/positive integer/);
  });
});

describe('what the scanner cannot tokenize is refused (ERR_XMLDSIG_XML_INVALID), never guessed at', () => {
  it.each([
    ['a DOCTYPE', '<!DOCTYPE r [<!ENTITY a "b">]><r/>'],
    ['an unquoted attribute value', '<r a=b/>'],
    ['an attribute without a value', '<r a/>'],
    ['"<" inside an attribute value', '<r a="<x/>"/>'],
    ['an unterminated comment', '<r><!-- <a/>'],
    ['an unterminated CDATA section', '<r><![CDATA[ <a/>'],
    ['an unterminated attribute value', '<r a="x><a/></r>'],
    ['an unterminated start tag', '<r a="x"'],
    ['an end tag without a start tag', '</r>'],
    ['a nameless tag', '< r/>'],
  ])('%s', (_name, xml) => {
    expect(code(() => checkXmlLimits(xml))).toBe('ERR_XMLDSIG_XML_INVALID');
  });
});

describe('untrusted SAML is shape-checked before parsing', () => {
  let idp: Signer;
  beforeAll(async () => {
    idp = await signer('ML-DSA-65');
  });

  const logoutRequest = (padding: string) =>
    '<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_x" Version="2.0" IssueInstant="2026-01-01T00:00:00Z">' +
    `<saml:Issuer>https://idp.example.test</saml:Issuer><saml:NameID>a</saml:NameID>${padding}</samlp:LogoutRequest>`;
  const SHAPES: Array<[string, string]> = [
    ['20,000 empty siblings', '<a/>'.repeat(20_000)],
    ['1,000 deep', `${'<a>'.repeat(1000)}${'</a>'.repeat(1000)}`],
    ['1,000 attributes', `<a ${Array.from({ length: 1000 }, (_, i) => `a${i}="x"`).join(' ')}/>`],
    [
      '2,000 attributes, 20 per element',
      `<a ${Array.from({ length: 20 }, (_, i) => `a${i}="x"`).join(' ')}/>`.repeat(100),
    ],
    ['5,000 elements in groups of 50', `<g>${'<a/>'.repeat(50)}</g>`.repeat(100)],
  ];

  it.each(SHAPES)('%s: refused on HTTP-Redirect and HTTP-POST and by verifySamlResponse', (_n, padding) => {
    const xml = logoutRequest(padding);
    const deflated = deflateRawSync(Buffer.from(xml)).toString('base64');
    expect(deflated.length).toBeLessThan(16 * 1024);
    expect(code(() => decodeSamlMessage(deflated, { binding: 'redirect' }))).toBe('ERR_XMLDSIG_XML_LIMIT');
    expect(code(() => decodeSamlMessage(Buffer.from(xml).toString('base64'), { binding: 'post' }))).toBe(
      'ERR_XMLDSIG_XML_LIMIT',
    );
    const response = samlResponse().replace('</samlp:Response>', `${padding}</samlp:Response>`);
    expect(
      code(() =>
        verifySamlResponse(response, {
          trustedCertificates: [idp.certificate],
          allowedAlgorithms: ['ML-DSA-65'],
        }),
      ),
    ).toBe('ERR_XMLDSIG_XML_LIMIT');
  });

  it('the limits are the caller’s to set: a tighter one refuses a real message, a looser one admits a shape', () => {
    const xml = samlResponse();
    const b64 = Buffer.from(xml).toString('base64');
    expect(decodeSamlMessage(b64, { binding: 'post' })).toBe(xml);
    expect(code(() => decodeSamlMessage(b64, { binding: 'post', limits: { maxElements: 5 } }))).toBe(
      'ERR_XMLDSIG_XML_LIMIT',
    );
    const wide = logoutRequest('<a/>'.repeat(600));
    expect(
      decodeSamlMessage(Buffer.from(wide).toString('base64'), {
        binding: 'post',
        limits: { maxChildren: 1000, maxElements: 1000 },
      }),
    ).toBe(wide);
  });
});
