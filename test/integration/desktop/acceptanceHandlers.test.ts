import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { createDispatcher } from '../../../electron/ipc/dispatch.ts';
import type { PlantDesk } from '../../../electron/services/plantDesk.ts';
import { startTestPlantDesk } from '../../support/testPlantDesk.ts';
import { TestServer } from '../../support/testServer.ts';

/**
 * The acceptance re-check as both hosts wire it (startPlantDesk): recorded for the signed-in
 * environment when a commissioning passes, answered for the active one, kept across a restart
 * of the app, and its channels' arguments checked like every other channel's.
 */

const CLOCK = '2026-06-21T12:00:00+02:00';
const INSTALLER = { email: 'installer@plantdesk.test', password: 'installer-pass-1' };

let server: TestServer;
const running: PlantDesk[] = [];
let dataDir: string;

beforeAll(async () => {
  server = await TestServer.start({ clock: CLOCK });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plantdesk-acceptance-'));
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((plantDesk) => plantDesk.dispose()));
});
afterAll(async () => {
  await server?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function start(): Promise<PlantDesk> {
  const plantDesk = await startTestPlantDesk({ dataDir, clock: CLOCK });
  running.push(plantDesk);
  return plantDesk;
}

describe('acceptance channels', () => {
  test('recorded when signed in, answered for the active environment, kept across a restart', async () => {
    const { handlers } = await start();
    const plantUuid = await server.demoPlantUuid();
    const signedOut = await handlers['acceptance.commissioned']({
      plantUuid,
      plantName: 'Demo',
    }).then(
      () => 'recorded',
      (error: { toSerialized(): { kind: string } }) => error.toSerialized().kind,
    );
    expect(signedOut).toBe('signedOut');

    const environment = await handlers['environments.add']({
      name: 'Test server',
      kind: 'sandbox',
      baseUrl: server.url,
    });
    await handlers['environments.select'](environment.id);
    expect((await handlers['session.signIn']({ ...INSTALLER, remember: false })).status).toBe(
      'signedIn',
    );
    expect(await handlers['acceptance.get'](plantUuid)).toBeNull();
    const recorded = await handlers['acceptance.commissioned']({ plantUuid, plantName: 'Demo' });
    expect(recorded).toMatchObject({
      status: 'pending',
      commissionedAt: expect.stringMatching(/^2026-06-21T10:00/),
      dueAt: expect.stringMatching(/^2026-06-22T10:00/),
    });
    expect(
      fs.statSync(path.join(dataDir, 'acceptance', `${environment.id}.json`)).mode & 0o777,
    ).toBe(0o600);
    await running.pop()!.dispose();

    const restarted = await start();
    await restarted.handlers['environments.select'](environment.id);
    expect(await restarted.handlers['acceptance.get'](plantUuid)).toEqual(recorded);

    // Re-checks and alerts are worded when read: another language has the pages read them again.
    const announced: string[] = [];
    restarted.events.on('acceptance.changed', () => announced.push('acceptance.changed'));
    restarted.events.on('alerts.changed', () => announced.push('alerts.changed'));
    restarted.monitor.state(environment.id);
    await restarted.handlers['app.setLanguage']('it');
    expect(announced.sort()).toEqual(['acceptance.changed', 'alerts.changed']);
    await restarted.handlers['app.setLanguage'](null);
  });

  test('refuses arguments outside the contract', async () => {
    const { handlers } = await start();
    const dispatch = createDispatcher(handlers);
    expect(await dispatch('acceptance.get', ['not-a-uuid'])).toMatchObject({
      ok: false,
      error: { kind: 'invalidArguments' },
    });
    expect(
      await dispatch('acceptance.commissioned', [
        { plantUuid: '11111111-2222-4333-8444-555555555555', plantName: 'Roof', extra: 1 },
      ]),
    ).toMatchObject({ ok: false, error: { kind: 'invalidArguments' } });
  });
});
