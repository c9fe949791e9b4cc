/**
 * An SP's message endpoint over both bindings (saml-bindings §3.4, §3.5): GET for HTTP-Redirect
 * (the message in the query), POST for HTTP-POST (in the form body), one handler for both.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage } from '../requests.ts';

const messageSchema = (where: 'query' | 'body') =>
  ({
    type: 'object',
    required: ['SAMLRequest'],
    properties: {
      // Redirect: deflated, so smaller; POST: the request may carry an ML-DSA-87 signature and certificate.
      SAMLRequest: { type: 'string', minLength: 1, maxLength: where === 'query' ? 32768 : 98304 },
      RelayState: { type: 'string', maxLength: 800 },
      SigAlg: { type: 'string', maxLength: 256 },
      Signature: { type: 'string', maxLength: 16384 },
    },
  }) as const;

interface SamlParams {
  SAMLRequest: string;
  RelayState?: string;
  SigAlg?: string;
  Signature?: string;
}

/** Everything after the first `?`, as received (a `?` may appear, unencoded, inside a value). */
const rawQueryOf = (url: string) => (url.includes('?') ? url.slice(url.indexOf('?') + 1) : '');

const incoming = (req: FastifyRequest, binding: 'redirect' | 'post', p: SamlParams): IncomingMessage => ({
  binding,
  message: p.SAMLRequest,
  relayState: p.RelayState,
  sigAlg: p.SigAlg,
  signature: p.Signature,
  rawQuery: rawQueryOf(req.raw.url ?? ''),
});

export type MessageHandler = (
  req: FastifyRequest,
  reply: FastifyReply,
  msg: IncomingMessage,
) => Promise<FastifyReply>;

/** GET|POST `path`: the SAMLRequest as received, to `handle`. */
export function messageRoutes(app: FastifyInstance, path: string, handle: MessageHandler): void {
  app.get<{ Querystring: SamlParams }>(
    path,
    { schema: { querystring: messageSchema('query') } },
    (req, reply) => handle(req, reply, incoming(req, 'redirect', req.query)),
  );
  app.post<{ Body: SamlParams }>(path, { schema: { body: messageSchema('body') } }, (req, reply) =>
    handle(req, reply, incoming(req, 'post', req.body)),
  );
}
