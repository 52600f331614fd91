import { lookup } from 'node:dns/promises';
import { BlockList, connect, isIP } from 'node:net';
import type { SharedWindows } from '../auth/sharedWindows.ts';

export interface ConnectionTestResult {
  ok: boolean;
  message: string;
}

export interface VendorIdentity {
  code: string;
  kind: string;
  name: string;
}

/** Who asks: tests are limited per user. */
export interface Requester {
  userUuid: string;
}

/** Too many tests by one user: the seconds until the next one may run. */
export class ConnectionTestsThrottled extends Error {
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    super(`Too many connection tests; try again in ${retryAfterSeconds} seconds`);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** Tests that a sensor's address is reachable through its vendor's integration. */
export interface ConnectionTester {
  /** Throws ConnectionTestsThrottled when the requester has tested too much. */
  test(
    vendor: VendorIdentity,
    address: string,
    requester: Requester,
  ): Promise<ConnectionTestResult>;
}

/**
 * The TCP ports each address scheme's integrations use. Nothing else is ever connected to: the
 * test must not become a way to learn which ports are open behind the server.
 */
export const DEFAULT_CONNECTION_PORTS: Readonly<Record<string, readonly number[]>> = {
  'modbus:': [502, 1502],
  'tcp:': [502, 1502, 8899],
  'http:': [80, 8080],
  'https:': [443, 8443],
  'mqtt:': [1883],
  'mqtts:': [8883],
};
const DEFAULT_PORT: Readonly<Record<string, number>> = {
  'modbus:': 502,
  'http:': 80,
  'https:': 443,
  'mqtt:': 1883,
  'mqtts:': 8883,
};

export interface ConnectionTestSettings {
  timeoutMs: number;
  /**
   * Connect to private (RFC 1918, unique-local), loopback and link-local addresses: for an
   * on-premise server next to the devices. Off by default: a server reachable from outside must
   * not probe its own network for whoever asks.
   */
  allowPrivateNetworks?: boolean;
  /** Ports per scheme; default DEFAULT_CONNECTION_PORTS. */
  ports?: Readonly<Record<string, readonly number[]>>;
  /** Network tests (not the simulator's) per user per minute; default 20. */
  maxTestsPerMinute?: number;
}

export interface ConnectionTesterOptions extends ConnectionTestSettings {
  /** Counts tests per minute (the server's clock). */
  now?: () => number;
  /** Resolves a host name to its addresses (tests). */
  resolve?: (host: string) => Promise<string[]>;
  /**
   * Counts the tests in the database, for every server instance on it (PostgreSQL); default:
   * in this process.
   */
  sharedWindows?: SharedWindows;
}

/** Never connected to: nothing a device integration would talk to lives there. */
const ALWAYS_BLOCKED = new BlockList();
ALWAYS_BLOCKED.addSubnet('0.0.0.0', 8, 'ipv4'); // "this network"
ALWAYS_BLOCKED.addSubnet('224.0.0.0', 4, 'ipv4'); // multicast
ALWAYS_BLOCKED.addSubnet('240.0.0.0', 4, 'ipv4'); // reserved, broadcast
ALWAYS_BLOCKED.addAddress('::', 'ipv6');
ALWAYS_BLOCKED.addSubnet('ff00::', 8, 'ipv6'); // multicast

/** Allowed only with allowPrivateNetworks. */
const PRIVATE = new BlockList();
PRIVATE.addSubnet('127.0.0.0', 8, 'ipv4');
PRIVATE.addSubnet('10.0.0.0', 8, 'ipv4');
PRIVATE.addSubnet('172.16.0.0', 12, 'ipv4');
PRIVATE.addSubnet('192.168.0.0', 16, 'ipv4');
PRIVATE.addSubnet('169.254.0.0', 16, 'ipv4'); // link-local (cloud metadata services)
PRIVATE.addSubnet('100.64.0.0', 10, 'ipv4'); // carrier-grade NAT
PRIVATE.addAddress('::1', 'ipv6');
PRIVATE.addSubnet('fc00::', 7, 'ipv6'); // unique local
PRIVATE.addSubnet('fe80::', 10, 'ipv6'); // link-local

/** `::ffff:10.0.0.1` is 10.0.0.1: judged as IPv4. */
function normalized(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return { address: mapped[1]!, family: 'ipv4' };
  return { address, family: isIP(address) === 6 ? 'ipv6' : 'ipv4' };
}

export function isAllowedTarget(address: string, allowPrivateNetworks: boolean): boolean {
  const { address: plain, family } = normalized(address);
  if (ALWAYS_BLOCKED.check(plain, family)) return false;
  return allowPrivateNetworks || !PRIVATE.check(plain, family);
}

/**
 * The built-in integrations: the simulator accepts any `sim://…` address (it makes up the
 * readings itself); every other vendor is reached over TCP, on the ports its scheme uses, at an
 * address that resolves outside private networks (unless the server allows them). Every failure
 * to connect reads the same and takes the whole time limit, so an answer does not tell an open
 * port from a closed or filtered one.
 */
export function createConnectionTester(options: ConnectionTesterOptions): ConnectionTester {
  const ports = options.ports ?? DEFAULT_CONNECTION_PORTS;
  const now = options.now ?? Date.now;
  const maxPerMinute = options.maxTestsPerMinute ?? 20;
  const resolve =
    options.resolve ??
    (async (host: string) => (await lookup(host, { all: true })).map((entry) => entry.address));
  const recentTests = new Map<string, number[]>();

  async function count(requester: Requester): Promise<void> {
    if (options.sharedWindows) {
      const refusal = await options.sharedWindows.countUnlessFull([
        {
          scope: 'connection-test',
          subject: requester.userUuid,
          limit: maxPerMinute,
          windowMs: 60_000,
        },
      ]);
      if (refusal) throw new ConnectionTestsThrottled(refusal.retryAfterSeconds);
      return;
    }
    const at = now();
    const recent = (recentTests.get(requester.userUuid) ?? []).filter((t) => t > at - 60_000);
    if (recent.length >= maxPerMinute) {
      throw new ConnectionTestsThrottled(Math.max(1, Math.ceil((recent[0]! + 60_000 - at) / 1000)));
    }
    recent.push(at);
    recentTests.set(requester.userUuid, recent);
    if (recentTests.size > 10_000) recentTests.clear();
  }

  return {
    async test(vendor, address, requester) {
      if (vendor.kind === 'SIMULATOR') {
        return /^sim:\/\/[^\s/][^\s]*$/i.test(address)
          ? { ok: true, message: `Simulated sensor ${address}` }
          : { ok: false, message: `${vendor.name} accepts only sim://… addresses` };
      }
      let url: URL;
      try {
        url = new URL(address);
      } catch {
        return { ok: false, message: `'${address}' is not an address (scheme://host:port)` };
      }
      const allowedPorts = ports[url.protocol];
      if (allowedPorts === undefined) {
        return {
          ok: false,
          message: `Address scheme '${url.protocol}' is not supported by ${vendor.name}`,
        };
      }
      const port = url.port ? Number(url.port) : DEFAULT_PORT[url.protocol];
      const host = url.hostname.replace(/^\[|\]$/g, '');
      if (!host || !port) return { ok: false, message: `'${address}' needs a host and a port` };
      if (!allowedPorts.includes(port)) {
        return {
          ok: false,
          message: `Port ${port} is not one that ${url.protocol.slice(0, -1)} integrations use (${allowedPorts.join(', ')})`,
        };
      }
      await count(requester);
      const started = performance.now();
      const unreachable = async (): Promise<ConnectionTestResult> => {
        await delay(Math.max(0, options.timeoutMs - (performance.now() - started)));
        return { ok: false, message: `Cannot connect to ${host}:${port}` };
      };
      let targets: string[];
      try {
        targets = isIP(host) ? [host] : await resolve(host);
      } catch {
        return unreachable();
      }
      if (targets.length === 0) return unreachable();
      const refused = targets.find(
        (target) => !isAllowedTarget(target, options.allowPrivateNetworks ?? false),
      );
      if (refused !== undefined) {
        return {
          ok: false,
          message: `${host} is on a private, loopback, link-local or multicast network, which this server does not connect to`,
        };
      }
      // The address just checked is the one connected to: no second lookup to be rebound.
      return (await reachable(targets[0]!, port, options.timeoutMs))
        ? { ok: true, message: `Connected to ${host}:${port}` }
        : unreachable();
    },
  };
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function reachable(address: string, port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: address, port });
    const finish = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
  });
}
