// Types for rs.js (plain JavaScript with JSDoc), for TypeScript callers such as the tests.
import type { FastifyInstance } from 'fastify';

export interface ResourceServerOptions {
  /** The pqid IdP, e.g. http://localhost:3000. */
  issuer: string;
  /** 0 picks a free port (default 4000). */
  port?: number;
  host?: string;
  /** This server's public URL (default http://localhost:<port>); DPoP proofs name it. */
  baseUrl?: string;
  /** Its resource indicator, exactly as in the IdP's resourceServers (default baseUrl + '/'). */
  resource?: string;
  /** Access-token and DPoP algorithms accepted (default: every @pqid/jose algorithm). */
  algorithms?: string[];
  /** Seconds a DPoP proof stays acceptable (default 300). */
  proofMaxAge?: number;
}

export interface ResourceServer {
  app: FastifyInstance;
  url: string;
  resource: string;
  close(): Promise<void>;
}

export function createResourceServer(opts: ResourceServerOptions): Promise<ResourceServer>;
