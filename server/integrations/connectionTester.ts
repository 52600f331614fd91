import { connect } from 'node:net';

export interface ConnectionTestResult {
  ok: boolean;
  message: string;
}

export interface VendorIdentity {
  code: string;
  kind: string;
  name: string;
}

/** Tests that a sensor's address is reachable through its vendor's integration. */
export interface ConnectionTester {
  test(vendor: VendorIdentity, address: string): Promise<ConnectionTestResult>;
}

/** Default TCP ports of the address schemes device integrations speak. */
const TCP_SCHEMES: Record<string, number> = {
  'modbus:': 502,
  'tcp:': 0,
  'http:': 80,
  'https:': 443,
  'mqtt:': 1883,
  'mqtts:': 8883,
};

export interface ConnectionTesterOptions {
  timeoutMs: number;
}

/**
 * The built-in integrations: the simulator accepts any `sim://…` address (it makes up the
 * readings itself); every other vendor is reached over TCP, and the test opens a connection to
 * the address's host and port.
 */
export function createConnectionTester(
  options: ConnectionTesterOptions = { timeoutMs: 3000 },
): ConnectionTester {
  return {
    async test(vendor, address) {
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
      const defaultPort = TCP_SCHEMES[url.protocol];
      if (defaultPort === undefined) {
        return {
          ok: false,
          message: `Address scheme '${url.protocol}' is not supported by ${vendor.name}`,
        };
      }
      const port = url.port ? Number(url.port) : defaultPort;
      if (!url.hostname || !port) {
        return { ok: false, message: `'${address}' needs a host and a port` };
      }
      return probeTcp(url.hostname.replace(/^\[|\]$/g, ''), port, options.timeoutMs);
    },
  };
}

function probeTcp(host: string, port: number, timeoutMs: number): Promise<ConnectionTestResult> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const finish = (result: ConnectionTestResult) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(timeoutMs, () =>
      finish({ ok: false, message: `No answer from ${host}:${port} within ${timeoutMs} ms` }),
    );
    socket.once('connect', () => finish({ ok: true, message: `Connected to ${host}:${port}` }));
    socket.once('error', (error: NodeJS.ErrnoException) =>
      finish({
        ok: false,
        message: `Cannot connect to ${host}:${port} (${error.code ?? error.message})`,
      }),
    );
  });
}
