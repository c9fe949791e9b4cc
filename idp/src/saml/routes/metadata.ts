/** GET /saml/metadata: the signed EntityDescriptor (metadata.ts), cached until its keys change. */
import type { FastifyInstance } from 'fastify';
import { type SamlDeps, samlAlgs } from '../deps.ts';
import { MetadataCache } from '../metadata.ts';

export function metadataRoute(app: FastifyInstance, deps: SamlDeps): void {
  const metadata = new MetadataCache(deps.certs);
  app.get('/saml/metadata', async (_req, reply) => {
    const xml = await metadata.get({
      endpoints: deps.ep,
      algs: await samlAlgs(deps),
      validitySeconds: deps.ctx.config.saml.metadataValidity,
    });
    return reply
      .header('content-type', 'application/samlmetadata+xml; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(xml);
  });
}
