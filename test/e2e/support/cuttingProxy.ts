import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An HTTP relay between the web host and a server (the Local sandbox, through the host's
 * `--local-sandbox-relay`, or a test's own), to interrupt a send halfway at a
 * chosen request: `cutAfter(predicate)` forwards the first request that matches to the server
 * (which acts on it), then drops the connection without an answer, as a network that fails at
 * the worst moment would. A server that is stopped shows through as a dropped connection too.
 */
export interface CuttingProxy {
  port: number;
  /** The next request matching is forwarded, and its answer never delivered. */
  cutAfter(matches: (method: string, path: string) => boolean): void;
  /** Forwards to another port from now on (a server started again elsewhere). */
  retarget(port: number): void;
  /** How many requests were cut so far. */
  cuts(): number;
  close(): Promise<void>;
}

export async function startCuttingProxy(targetPort: number): Promise<CuttingProxy> {
  let pending: ((method: string, path: string) => boolean) | null = null;
  let cut = 0;
  const server = http.createServer((request, response) => {
    const method = request.method ?? 'GET';
    const path = request.url ?? '/';
    const cutThis = pending !== null && pending(method, path);
    if (cutThis) pending = null;
    const upstream = http.request(
      {
        host: '127.0.0.1',
        port: targetPort,
        method,
        path,
        // A server that answers only its own address (the Local sandbox) sees itself addressed.
        headers: { ...request.headers, host: `127.0.0.1:${targetPort}` },
      },
      (answer) => {
        if (cutThis) {
          cut += 1;
          answer.resume();
          answer.on('end', () => request.socket.destroy());
          return;
        }
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => request.socket.destroy());
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    cutAfter(matches) {
      pending = matches;
    },
    retarget(port) {
      targetPort = port;
    },
    cuts: () => cut,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
