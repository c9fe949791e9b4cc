/**
 * The guard an SP runs on every request before node-saml / passport-saml sees it. passport-saml's
 * `authenticate()` reads `req.query.SAMLRequest`/`SAMLResponse` first, on whatever route it is
 * mounted (the login route included), and only then the body; node-saml accepts an unsigned
 * LogoutRequest over HTTP-Redirect. So a guard that looks at the body of one route is not enough:
 * this one looks at both the query and the body, takes exactly the message kinds and bindings a
 * route names (none by default), bounds the work (size, inflated size, XML shape), and refuses
 * logout messages without a signature whatever the binding.
 */
import type { Element } from '@xmldom/xmldom';
import { checkDestination } from './addressing.ts';
import { SamlUnsigned, XmlInvalid } from './errors.ts';
import { decodeSamlMessageDocument } from './saml-message.ts';
import { XMLDSIG_NS } from './uris.ts';
import type { XmlLimits } from './xml/limits.ts';
import { childElements } from './xml/parse.ts';

export interface SamlHttpRules {
  /** samlp kinds this route takes over HTTP-POST (in the body). Default: none. */
  post?: readonly string[];
  /** samlp kinds this route takes over HTTP-Redirect (in the query). Default: none. */
  redirect?: readonly string[];
  /** Refuse a request that carries no SAML message (an ACS or SLO endpoint). Default false. */
  required?: boolean;
  /** The URL of this endpoint: the message's Destination must be it (see decodeSamlMessage). */
  destination?: string;
  /** Decoded-size cap; default 128 KiB. */
  maxBytes?: number;
  /** Shape limits over DEFAULT_SAML_LIMITS. */
  limits?: Partial<XmlLimits>;
}

/** What an HTTP framework hands over: parsed query and body (express, fastify, …). */
export interface SamlHttpRequest {
  query?: unknown;
  body?: unknown;
}

export interface CheckedSamlMessage {
  binding: 'post' | 'redirect';
  parameter: 'SAMLRequest' | 'SAMLResponse';
  kind: string;
  xml: string;
}

const PARAMETERS = ['SAMLRequest', 'SAMLResponse'] as const;
const LOGOUT = new Set(['LogoutRequest', 'LogoutResponse']);

const field = (source: unknown, name: string): unknown =>
  source !== null && typeof source === 'object' && Object.hasOwn(source, name)
    ? (source as Record<string, unknown>)[name]
    : undefined;

/**
 * Returns the one SAML message of the request, decoded and within limits, or undefined when there
 * is none (and `required` is not set). Throws a typed error (`code` ERR_XMLDSIG_*) for anything
 * else: a message on a route or binding that takes none, two messages (query and body, or both
 * parameters), a kind the route does not take or in the wrong parameter, malformed or oversized
 * input, a shape past the limits, a Destination other than `destination`, or a LogoutRequest /
 * LogoutResponse without a signature (Redirect: `Signature` and `SigAlg` in the query; POST: an
 * enveloped ds:Signature on the root). Verifying that signature is still node-saml's job.
 */
export function checkSamlHttpMessage(
  req: SamlHttpRequest,
  rules: SamlHttpRules,
): CheckedSamlMessage | undefined {
  const found: Array<{
    binding: 'post' | 'redirect';
    parameter: (typeof PARAMETERS)[number];
    value: unknown;
  }> = [];
  for (const [binding, source] of [
    ['redirect', req.query],
    ['post', req.body],
  ] as const)
    for (const parameter of PARAMETERS) {
      const value = field(source, parameter);
      if (value !== undefined) found.push({ binding, parameter, value });
    }
  if (found.length === 0) {
    if (rules.required) throw new XmlInvalid('This endpoint needs a SAML message and the request has none');
    return undefined;
  }
  if (found.length > 1)
    throw new XmlInvalid(
      `The request carries ${found.length} SAML messages (${found.map((f) => `${f.parameter} in the ${f.binding === 'post' ? 'body' : 'query'}`).join(', ')}); it may carry one`,
    );
  const [{ binding, parameter, value }] = found as [(typeof found)[number]];
  const accept = rules[binding] ?? [];
  if (accept.length === 0)
    throw new XmlInvalid(
      `This endpoint takes no SAML message over HTTP-${binding === 'post' ? 'POST' : 'Redirect'} (${parameter} in the ${binding === 'post' ? 'body' : 'query'})`,
    );
  const decoded = decodeSamlMessageDocument(value, {
    binding,
    accept,
    ...(rules.maxBytes !== undefined ? { maxBytes: rules.maxBytes } : {}),
    ...(rules.limits ? { limits: rules.limits } : {}),
  });
  const isRequest = decoded.kind.endsWith('Request');
  if (isRequest !== (parameter === 'SAMLRequest'))
    throw new XmlInvalid(`A samlp:${decoded.kind} does not travel as ${parameter}`);
  if (LOGOUT.has(decoded.kind) && !signed(binding, req.query, decoded.root))
    throw new SamlUnsigned(
      `A samlp:${decoded.kind} must be signed (${binding === 'post' ? 'an enveloped ds:Signature' : 'Signature and SigAlg in the query'})`,
    );
  if (rules.destination !== undefined) checkDestination(decoded.root, rules.destination, true);
  return { binding, parameter, kind: decoded.kind, xml: decoded.xml };
}

function signed(binding: 'post' | 'redirect', query: unknown, root: Element): boolean {
  if (binding === 'post') return childElements(root, XMLDSIG_NS, 'Signature').length > 0;
  const sig = field(query, 'Signature');
  const alg = field(query, 'SigAlg');
  return typeof sig === 'string' && sig !== '' && typeof alg === 'string' && alg !== '';
}
