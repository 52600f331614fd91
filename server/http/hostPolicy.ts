import type { FastifyInstance } from 'fastify';
import { ApiError } from './errors.ts';

/**
 * Which `Host` a request may name. A page on another site can point its own name at 127.0.0.1
 * (DNS rebinding) and then talk to a loopback server as if same-origin; it cannot make the
 * browser send our host and port in `Host`.
 * - `allowed`: host[:port] values answered (case-insensitive), e.g. a deployment's public name;
 * - `ownLoopback`: answer loopback names with the port the server actually listens on (the Local
 *   sandbox starts on port 0, so the port is known only once it listens).
 * Neither set: any Host is answered.
 */
export interface HostPolicy {
  allowed: readonly string[];
  ownLoopback: boolean;
}

export const ANY_HOST: HostPolicy = { allowed: [], ownLoopback: false };

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

export function hostAllowed(
  policy: HostPolicy,
  host: string | undefined,
  ownPort: number,
): boolean {
  if (policy.allowed.length === 0 && !policy.ownLoopback) return true;
  if (host === undefined) return false;
  const named = host.toLowerCase();
  if (policy.allowed.some((allowed) => allowed.toLowerCase() === named)) return true;
  return policy.ownLoopback && LOOPBACK_NAMES.some((name) => named === `${name}:${ownPort}`);
}

function listeningPort(app: FastifyInstance): number {
  const address = app.server.address();
  return typeof address === 'object' && address !== null ? address.port : -1;
}

export function installHostPolicy(app: FastifyInstance, policy: HostPolicy): void {
  if (policy.allowed.length === 0 && !policy.ownLoopback) return;
  app.addHook('onRequest', async (request) => {
    if (!hostAllowed(policy, request.headers.host, listeningPort(app))) {
      throw new ApiError(
        421,
        `This server does not answer for host '${request.headers.host ?? ''}'`,
      );
    }
  });
}
