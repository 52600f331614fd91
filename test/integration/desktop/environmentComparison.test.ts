import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Envelope } from '../../../electron/ipc/contract.ts';
import type { EntryDiff } from '../../../server/domain/comparison/index.ts';
import { createDispatcher } from '../../../electron/ipc/dispatch.ts';
import { startPlantDesk, type PlantDesk } from '../../../electron/services/plantDesk.ts';
import { createMemoryStore } from '../../../electron/services/secrets.ts';
import { idleSandbox } from '../../support/idleSandbox.ts';
import { TestServer } from '../../support/testServer.ts';

/**
 * The environment comparison on two real servers with the demo plant ("production" and
 * "sandbox"), through the handlers both hosts use: the same plant found by its external id,
 * a device, a sensor and a vendor secret changed in one, compared with each environment's own
 * session. Each server sits behind a relay that notes the tokens it issued and the ones it was
 * shown: no credential ever reaches a server that did not issue it, and no secret value comes
 * back in the result.
 */

const CLOCK = '2026-06-21T12:00:00+02:00';
const INSTALLER = { email: 'installer@plantdesk.test', password: 'installer-pass-1' };

interface Relay {
  url: string;
  issued: Set<string>;
  presented: Set<string>;
  close(): Promise<void>;
}

async function relayTo(target: string): Promise<Relay> {
  const issued = new Set<string>();
  const presented = new Set<string>();
  const server = http.createServer((request, response) => {
    const header = request.headers.authorization;
    if (header?.startsWith('Bearer ')) presented.add(header.slice('Bearer '.length));
    const forward = http.request(
      new URL(request.url ?? '/', target),
      { method: request.method, headers: { ...request.headers, host: new URL(target).host } },
      (answer) => {
        let text = '';
        answer.setEncoding('utf8');
        answer.on('data', (chunk: string) => (text += chunk));
        answer.on('end', () => {
          for (const match of text.matchAll(/"(?:access|refresh)Token":"([^"]+)"/g)) {
            issued.add(match[1]!);
          }
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          response.end(text);
        });
      },
    );
    request.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    issued,
    presented,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let production: TestServer;
let sandbox: TestServer;
let productionRelay: Relay;
let sandboxRelay: Relay;
let plantDesk: PlantDesk;
let dataDir: string;

beforeAll(async () => {
  [production, sandbox] = await Promise.all([
    TestServer.start({ clock: CLOCK }),
    TestServer.start({ clock: CLOCK }),
  ]);
  [productionRelay, sandboxRelay] = await Promise.all([
    relayTo(production.url),
    relayTo(sandbox.url),
  ]);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plantdesk-comparison-'));
  plantDesk = await startApp();
});

/** The keychain outlives a run of the app, as the OS's does. */
const keychain = { ...createMemoryStore(), available: true };

function startApp(): Promise<PlantDesk> {
  return startPlantDesk({
    host: 'web',
    version: 'test',
    dataDir,
    spawnServer: idleSandbox,
    secrets: { store: keychain, status: { available: true } },
    log: { info() {}, warn() {}, error() {} },
    openExternal: async () => {},
    clock: CLOCK,
  });
}

afterAll(async () => {
  await plantDesk?.dispose();
  await Promise.all([productionRelay?.close(), sandboxRelay?.close()]);
  await Promise.all([production?.close(), sandbox?.close()]);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Changes made directly on the sandbox server, as a colleague would have. */
async function changeTheSandbox(): Promise<void> {
  const token = await sandbox.tokenFor('installer');
  const plantUuid = await sandbox.demoPlantUuid();
  const sensors = await sandbox.request('GET', `/plants/${plantUuid}/sensors`, {
    token,
    query: { size: 200 },
  });
  const byName = (name: string) =>
    (sensors.body.content as { sensorUuid: string; name: string }[]).find(
      (sensor) => sensor.name === name,
    )!;
  const plant = await sandbox.request('GET', `/plants/${plantUuid}`, { token });
  expect(
    (
      await sandbox.request('PUT', `/plants/${plantUuid}`, {
        token,
        body: { pv: { ...plant.body.pv, tiltDeg: 35 } },
      })
    ).status,
  ).toBe(200);
  const grid = byName('Grid exchange');
  expect(
    (
      await sandbox.request('PUT', `/plants/${plantUuid}/sensors/${grid.sensorUuid}`, {
        token,
        body: { samplingIntervalSeconds: 300 },
      })
    ).status,
  ).toBe(200);
  const wallbox = byName('Wallbox power');
  expect(
    (
      await sandbox.request('DELETE', `/plants/${plantUuid}/sensors/${wallbox.sensorUuid}`, {
        token,
      })
    ).status,
  ).toBe(204);
  const devices = await sandbox.request('GET', `/plants/${plantUuid}/devices`, {
    token,
    query: { size: 200 },
  });
  const inverter = (devices.body.content as { deviceUuid: string; serialNumber: string }[]).find(
    (device) => device.serialNumber === 'INV-24-000815',
  )!;
  expect(
    (
      await sandbox.request('PUT', `/plants/${plantUuid}/devices/${inverter.deviceUuid}`, {
        token,
        body: { name: 'Inverter (roof)', ratedPowerW: 10000 },
      })
    ).status,
  ).toBe(200);
}

async function configureVendor(
  server: TestServer,
  code: string,
  settings: Record<string, string | number>,
): Promise<void> {
  const token = await server.tokenFor('installer');
  const plantUuid = await server.demoPlantUuid();
  const vendors = await server.request('GET', `/plants/${plantUuid}/vendors`, {
    token,
    query: { size: 200 },
  });
  const vendor = (vendors.body.content as { vendorUuid: string; code: string }[]).find(
    (entry) => entry.code === code,
  )!;
  const answer = await server.request('PUT', `/plants/${plantUuid}/vendors/${vendor.vendorUuid}`, {
    token,
    body: { settings },
  });
  expect(answer.status).toBe(200);
}

describe('comparing the demo plant in production and sandbox', () => {
  test('asks to sign in to the other environment, then compares without switching', async () => {
    const { handlers } = plantDesk;
    await changeTheSandbox();
    await configureVendor(production, 'SOLAREDGE', {
      siteId: '4711',
      apiKey: 'production-key-7f3a91',
    });
    await configureVendor(sandbox, 'SOLAREDGE', { siteId: '4711', apiKey: 'sandbox-key-0c62d4' });

    const prod = await handlers['environments.add']({
      name: 'Production',
      kind: 'production',
      baseUrl: productionRelay.url,
    });
    const sand = await handlers['environments.add']({
      name: 'Sandbox',
      kind: 'sandbox',
      baseUrl: sandboxRelay.url,
    });
    await handlers['environments.select'](prod.id);
    await handlers['session.signIn']({ ...INSTALLER, remember: false });
    const plantUuid = await production.demoPlantUuid();

    const first = await handlers['comparison.compare']({
      plantUuid,
      otherEnvironmentId: sand.id,
    });
    expect(first).toMatchObject({
      status: 'signInNeeded',
      left: { plant: { name: 'Demo Home', externalIds: ['DEMO-HOME-001'] } },
      other: { id: sand.id, name: 'Sandbox', origin: sandboxRelay.url },
    });
    // Nothing was sent to the sandbox yet: it has no credential to be sent.
    expect(sandboxRelay.presented.size).toBe(0);

    const signedIn = await handlers['comparison.signIn'](sand.id, {
      ...INSTALLER,
      remember: false,
    });
    expect(signedIn).toMatchObject({ environmentId: sand.id, status: 'signedIn' });
    // The active environment and its session are what they were.
    expect((await handlers['environments.list']()).activeId).toBe(prod.id);
    expect(await handlers['session.state']()).toMatchObject({
      environmentId: prod.id,
      status: 'signedIn',
    });

    const result = await handlers['comparison.compare']({
      plantUuid,
      otherEnvironmentId: sand.id,
    });
    expect(result.status).toBe('compared');
    if (result.status !== 'compared') return;
    expect(result.matchedExternalIds).toEqual(['DEMO-HOME-001']);
    expect(result.right.plant.plantUuid).toBe(await sandbox.demoPlantUuid());
    expect(result.diff.plant.filter((field) => field.status !== 'same')).toEqual([
      { field: 'tiltDeg', status: 'changed', left: 30, right: 35 },
    ]);

    const inverter = result.diff.devices.find((entry) => entry.leftLabel === 'Rooftop inverter')!;
    expect(inverter).toMatchObject({
      status: 'changed',
      matchedBy: 'serialNumber',
      rightLabel: 'Inverter (roof)',
    });
    expect(
      inverter.fields.filter((field) => field.status !== 'same').map((field) => field.field),
    ).toEqual(['name', 'ratedPowerW']);
    expect(result.diff.devices.filter((entry) => entry.status === 'same')).toHaveLength(4);

    const sensors: Record<string, EntryDiff> = Object.fromEntries(
      result.diff.sensors.map((entry) => [entry.leftLabel ?? entry.rightLabel, entry]),
    );
    expect(sensors['Grid exchange']!.status).toBe('changed');
    expect(
      sensors['Grid exchange']!.fields.find((field) => field.field === 'samplingIntervalSeconds'),
    ).toMatchObject({ status: 'changed', left: 60, right: 300 });
    expect(sensors['Wallbox power']).toMatchObject({ status: 'removed', rightLabel: null });
    // The sensors of the renamed inverter point at it by its serial number: unchanged.
    expect(sensors['PV production']!.status).toBe('same');

    const [solarEdge] = result.diff.vendors.filter(
      (entry) => entry.leftLabel === 'SolarEdge monitoring',
    );
    expect(solarEdge).toMatchObject({ status: 'same', matchedBy: 'code' });
    expect(solarEdge!.fields.find((field) => field.field === 'secret:apiKey')).toEqual({
      field: 'secret:apiKey',
      status: 'same',
      left: { secret: 'set' },
      right: { secret: 'set' },
    });
    const answered = JSON.stringify(result);
    expect(answered).not.toContain('production-key-7f3a91');
    expect(answered).not.toContain('sandbox-key-0c62d4');

    // Each server was shown only tokens it issued itself.
    expect(productionRelay.presented.size).toBeGreaterThan(0);
    expect(sandboxRelay.presented.size).toBeGreaterThan(0);
    for (const token of productionRelay.presented) expect(productionRelay.issued).toContain(token);
    for (const token of sandboxRelay.presented) expect(sandboxRelay.issued).toContain(token);
  });

  test('a secret set in one environment only is a difference, still without its value', async () => {
    await configureVendor(production, 'SMA', { unitId: 3, installerPassword: 'sma-pass-52e1' });
    await configureVendor(sandbox, 'SMA', { unitId: 3 });
    const { handlers } = plantDesk;
    const { environments } = await handlers['environments.list']();
    const sand = environments.find((environment) => environment.name === 'Sandbox')!;
    const result = await handlers['comparison.compare']({
      plantUuid: await production.demoPlantUuid(),
      otherEnvironmentId: sand.id,
    });
    expect(result.status).toBe('compared');
    if (result.status !== 'compared') return;
    const sma = result.diff.vendors.find((entry) => entry.leftLabel === 'SMA Modbus')!;
    expect(sma.status).toBe('changed');
    expect(sma.fields.filter((field) => field.status !== 'same')).toEqual([
      {
        field: 'secret:installerPassword',
        status: 'changed',
        left: { secret: 'set' },
        right: { secret: 'unset' },
      },
    ]);
    expect(JSON.stringify(result)).not.toContain('sma-pass-52e1');
  });

  test('a plant without a twin, one with two, and refused arguments', async () => {
    const { handlers } = plantDesk;
    const { environments, activeId } = await handlers['environments.list']();
    const sand = environments.find((environment) => environment.name === 'Sandbox')!;
    const token = await production.tokenFor('installer');
    const created = await production.request('POST', '/plants', {
      token,
      body: {
        name: 'Only in production',
        externalIds: ['PROD-ONLY-1'],
        location: { latitude: 46.5, longitude: 11.35, timezone: 'Europe/Rome' },
      },
    });
    expect(created.status).toBe(201);
    const result = await handlers['comparison.compare']({
      plantUuid: created.body.plantUuid,
      otherEnvironmentId: sand.id,
    });
    expect(result).toMatchObject({ status: 'notFound', candidates: [] });

    // Two external ids, each held by another plant over there: which one is meant is not guessed.
    const location = { latitude: 46.5, longitude: 11.35, timezone: 'Europe/Rome' };
    const both = await production.request('POST', '/plants', {
      token,
      body: { name: 'Two ids', externalIds: ['AMB-1', 'AMB-2'], location },
    });
    const sandboxToken = await sandbox.tokenFor('installer');
    for (const id of ['AMB-1', 'AMB-2']) {
      const made = await sandbox.request('POST', '/plants', {
        token: sandboxToken,
        body: { name: `Plant ${id}`, externalIds: [id], location },
      });
      expect(made.status).toBe(201);
    }
    const ambiguous = await handlers['comparison.compare']({
      plantUuid: both.body.plantUuid,
      otherEnvironmentId: sand.id,
    });
    expect(ambiguous).toMatchObject({ status: 'ambiguous' });
    if (ambiguous.status === 'ambiguous') {
      expect(ambiguous.candidates.map((plant) => plant.name).sort()).toEqual([
        'Plant AMB-1',
        'Plant AMB-2',
      ]);
    }

    const dispatch = createDispatcher(handlers);
    const refused = (await dispatch('comparison.compare', [
      { plantUuid: 'not-a-uuid', otherEnvironmentId: sand.id },
    ])) as Envelope<unknown>;
    expect(refused).toMatchObject({ ok: false, error: { kind: 'invalidArguments' } });
    const same = (await dispatch('comparison.compare', [
      { plantUuid: created.body.plantUuid, otherEnvironmentId: activeId },
    ])) as Envelope<unknown>;
    expect(same).toMatchObject({ ok: false, error: { kind: 'invalidArguments' } });
  });

  test('a sign-in to the other environment kept in the keychain is restored at the next start, still without switching', async () => {
    const { handlers } = plantDesk;
    const { environments } = await handlers['environments.list']();
    const sand = environments.find((environment) => environment.name === 'Sandbox')!;
    await handlers['comparison.signIn'](sand.id, { ...INSTALLER, remember: true });
    await plantDesk.dispose();

    plantDesk = await startApp();
    const restarted = plantDesk.handlers;
    const prod = (await restarted['environments.list']()).environments.find(
      (environment) => environment.name === 'Production',
    )!;
    await restarted['environments.select'](prod.id);
    await restarted['session.signIn']({ ...INSTALLER, remember: false });
    const result = await restarted['comparison.compare']({
      plantUuid: await production.demoPlantUuid(),
      otherEnvironmentId: sand.id,
    });
    expect(result.status).toBe('compared');
    expect((await restarted['environments.list']()).activeId).toBe(prod.id);
    for (const token of sandboxRelay.presented) expect(sandboxRelay.issued).toContain(token);
    for (const token of productionRelay.presented) expect(productionRelay.issued).toContain(token);
  });
});
