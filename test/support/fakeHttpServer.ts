import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

/**
 * Throwaway node:http servers on loopback that answer exactly what a test needs (failures, wrong
 * shapes, slow answers) and record what they were sent; closed after each test.
 */

export interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}
export type Handler = (request: Seen, response: http.ServerResponse, index: number) => void;

export interface FakeServer {
  url: string;
  seen: Seen[];
  close(): Promise<void>;
}

const servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

export async function fakeServer(handler: Handler): Promise<FakeServer> {
  const seen: Seen[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const entry: Seen = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      seen.push(entry);
      handler(entry, response, seen.length - 1);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const fake: FakeServer = {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  servers.push(fake);
  return fake;
}

export function json(response: http.ServerResponse, status: number, body: unknown, headers = {}) {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}
