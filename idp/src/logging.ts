/** pino options for fastify: secrets and tokens are redacted, and URLs are logged without queries. */
import type { FastifyServerOptions } from 'fastify';

export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.client_secret',
  '*.code',
  '*.code_verifier',
  '*.access_token',
  '*.refresh_token',
  '*.id_token',
  '*.csrf',
];

export function loggerOptions(
  level: string,
  stream?: { write(msg: string): void },
): FastifyServerOptions['logger'] {
  if (level === 'silent') return false;
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: {
      // Query strings can carry codes, states and hints; the path is enough to trace a request.
      req: (req: { method: string; url: string; ip?: string }) => ({
        method: req.method,
        url: req.url.split('?')[0],
        ip: req.ip,
      }),
    },
  };
}
