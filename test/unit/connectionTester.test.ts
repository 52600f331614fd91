import { createServer, type Server } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  ConnectionTestsThrottled,
  createConnectionTester,
  isAllowedTarget,
  type ConnectionTesterOptions,
} from '../../server/integrations/connectionTester.ts';

const FRONIUS = { code: 'FRONIUS', kind: 'INVERTER', name: 'Fronius' };
const SIMULATOR = { code: 'SIM', kind: 'SIMULATOR', name: 'PlantDesk simulator' };
const alice = { userUuid: 'alice' };
const bob = { userUuid: 'bob' };

let listening: Server;
let openPort: number;
let closedPort: number;

function listen(): Promise<Server> {
  return new Promise((resolve) => {
    const server = createServer((socket) => socket.destroy());
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}
const portOf = (server: Server) => (server.address() as { port: number }).port;

beforeAll(async () => {
  listening = await listen();
  openPort = portOf(listening);
  const released = await listen();
  closedPort = portOf(released);
  await new Promise((resolve) => released.close(resolve));
});

afterAll(async () => {
  await new Promise((resolve) => listening.close(resolve));
});

function tester(options: Partial<ConnectionTesterOptions> = {}) {
  return createConnectionTester({ timeoutMs: 300, ...options });
}

describe('isAllowedTarget', () => {
  test.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.10',
    '169.254.169.254',
    '100.64.0.1',
    '::1',
    'fd00::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
  ])('%s is private: refused by default, allowed for on-premise servers', (address) => {
    expect(isAllowedTarget(address, false)).toBe(false);
    expect(isAllowedTarget(address, true)).toBe(true);
  });

  test.each([
    '0.0.0.0',
    '0.1.2.3',
    '224.0.0.1',
    '239.255.255.250',
    '255.255.255.255',
    '::',
    'ff02::1',
  ])('%s is never connected to', (address) => {
    expect(isAllowedTarget(address, false)).toBe(false);
    expect(isAllowedTarget(address, true)).toBe(false);
  });

  test.each(['8.8.8.8', '93.184.216.34', '172.32.0.1', '2001:4860:4860::8888', '::ffff:8.8.8.8'])(
    '%s is public',
    (address) => {
      expect(isAllowedTarget(address, false)).toBe(true);
    },
  );

  test('every address in 10/8, 127/8 and 192.168/16 is refused', () => {
    const octet = fc.integer({ min: 0, max: 255 });
    fc.assert(
      fc.property(fc.constantFrom('10', '127'), octet, octet, octet, (first, b, c, d) => {
        expect(isAllowedTarget(`${first}.${b}.${c}.${d}`, false)).toBe(false);
      }),
    );
    fc.assert(
      fc.property(octet, octet, (c, d) => {
        expect(isAllowedTarget(`192.168.${c}.${d}`, false)).toBe(false);
      }),
    );
  });
});

describe('the connection test', () => {
  test('refuses loopback and private targets by default, named or resolved', async () => {
    const test = tester({ ports: { 'modbus:': [openPort] } }).test;
    for (const address of [
      `modbus://127.0.0.1:${openPort}`,
      `modbus://[::1]:${openPort}`,
      `modbus://localhost:${openPort}`,
    ]) {
      const result = await test(FRONIUS, address, alice);
      expect(result.ok, address).toBe(false);
      expect(result.message).toMatch(/private, loopback, link-local or multicast network/);
    }
    const rebound = tester({
      ports: { 'modbus:': [502] },
      resolve: async () => ['93.184.216.34', '169.254.169.254'],
    });
    expect(await rebound.test(FRONIUS, 'modbus://devices.example.com:502', alice)).toEqual({
      ok: false,
      message:
        'devices.example.com is on a private, loopback, link-local or multicast network, which this server does not connect to',
    });
  });

  test('connects only to the ports of the scheme', async () => {
    const test = tester({ allowPrivateNetworks: true }).test;
    expect(await test(FRONIUS, 'modbus://127.0.0.1:22', alice)).toEqual({
      ok: false,
      message: 'Port 22 is not one that modbus integrations use (502, 1502)',
    });
    expect(await test(FRONIUS, 'http://127.0.0.1:6379', alice)).toMatchObject({ ok: false });
    expect(await test(FRONIUS, 'ftp://127.0.0.1:21', alice)).toEqual({
      ok: false,
      message: "Address scheme 'ftp:' is not supported by Fronius",
    });
  });

  test('a closed port, a silent host and an unknown name answer alike, after the whole time limit', async () => {
    const test = tester({
      allowPrivateNetworks: true,
      ports: { 'modbus:': [openPort, closedPort] },
      resolve: async () => {
        throw new Error('ENOTFOUND');
      },
    }).test;
    const started = performance.now();
    expect(await test(FRONIUS, `modbus://127.0.0.1:${closedPort}`, alice)).toEqual({
      ok: false,
      message: `Cannot connect to 127.0.0.1:${closedPort}`,
    });
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    const unknown = performance.now();
    expect(await test(FRONIUS, `modbus://nowhere.invalid:${closedPort}`, alice)).toEqual({
      ok: false,
      message: `Cannot connect to nowhere.invalid:${closedPort}`,
    });
    expect(performance.now() - unknown).toBeGreaterThanOrEqual(290);
    expect(await test(FRONIUS, `modbus://127.0.0.1:${openPort}`, alice)).toEqual({
      ok: true,
      message: `Connected to 127.0.0.1:${openPort}`,
    });
  });

  test('limits tests per user per minute, on the clock it is given', async () => {
    let now = Date.parse('2026-06-21T10:00:00Z');
    const test = tester({
      allowPrivateNetworks: true,
      ports: { 'modbus:': [openPort] },
      maxTestsPerMinute: 2,
      now: () => now,
    }).test;
    const address = `modbus://127.0.0.1:${openPort}`;
    await test(FRONIUS, address, alice);
    now += 10_000;
    await test(FRONIUS, address, alice);
    now += 5_000;
    const refused = await test(FRONIUS, address, alice).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ConnectionTestsThrottled);
    expect((refused as ConnectionTestsThrottled).retryAfterSeconds).toBe(45);
    // Another user is not held back by alice.
    expect((await test(FRONIUS, address, bob)).ok).toBe(true);
    now += 45_000;
    expect((await test(FRONIUS, address, alice)).ok).toBe(true);
  });

  test('refused addresses and the simulator count toward nothing but the limit of network tests', async () => {
    const test = tester({ maxTestsPerMinute: 1, now: () => 0 }).test;
    for (let i = 0; i < 5; i++) {
      expect((await test(SIMULATOR, 'sim://plant/pv', alice)).ok).toBe(true);
      expect((await test(FRONIUS, 'modbus://127.0.0.1:22', alice)).ok).toBe(false);
    }
  });
});
