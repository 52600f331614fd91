import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportScheduleState, SessionState } from '../../../electron/ipc/contract.ts';
import { createDispatcher } from '../../../electron/ipc/dispatch.ts';
import { spawnNodeServer } from '../../../electron/services/childProcessServer.ts';
import { silentLogger } from '../../../electron/services/logger.ts';
import { startPlantDesk, type PlantDesk } from '../../../electron/services/plantDesk.ts';
import { channelValues, memorySecrets, sandboxRunning } from '../../support/desktopHost.ts';
import { until } from '../../support/until.ts';

/**
 * The monthly report schedule through the real services and IPC handlers, against a Local
 * sandbox server at a fixed instant (3 July 2026): the folder comes from the host's dialog, and
 * turning the schedule on writes June's fleet report there at once (the due run caught up).
 */

const INSTALLER = { email: 'installer@plantdesk.test', password: 'installer-pass-1' };
const CLOCK = '2026-07-03T09:00:00+02:00';

describe('the report schedule of the desktop host', () => {
  let root: string;
  let folder: string;
  let plantDesk: PlantDesk;

  let value: ReturnType<typeof channelValues>;

  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'plantdesk-reports-'));
    folder = path.join(root, 'chosen');
    fs.mkdirSync(folder);
    plantDesk = await startPlantDesk({
      host: 'electron',
      version: '9.9.9-test',
      dataDir: path.join(root, 'data'),
      logDir: path.join(root, 'logs'),
      spawnServer: spawnNodeServer(),
      localSandboxArgs: ['--no-simulation'],
      clock: CLOCK,
      secrets: memorySecrets(),
      log: silentLogger,
      openExternal: async () => {},
      chooseFolder: async () => folder,
    });
    value = channelValues(createDispatcher(plantDesk.handlers));
    await sandboxRunning(value);
  }, 90_000);

  afterAll(async () => {
    await plantDesk?.dispose();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('writes last month’s report into the chosen folder, once, and keeps its settings private', async () => {
    const session = await value<SessionState>('session.signIn', { ...INSTALLER, remember: false });
    expect(session.status).toBe('signedIn');

    const initial = await value<ReportScheduleState>('reports.schedule');
    expect(initial).toMatchObject({ available: true, settings: { enabled: false, folder: null } });
    const chosen = await value<ReportScheduleState>('reports.chooseFolder');
    expect(chosen.settings.folder).toBe(folder);
    await value('reports.updateSchedule', { enabled: true, dayOfMonth: 1 });

    const written = await until(async () => {
      const state = await value<ReportScheduleState>('reports.schedule');
      if (state.lastError) throw new Error(state.lastError);
      return state.lastWritten ? state : undefined;
    }, 30_000);
    expect(written.lastWritten).toBe('2026-06');
    const files = fs.readdirSync(folder).sort();
    expect(files).toEqual([
      'plantdesk-report-local-sandbox-2026-06-days.csv',
      'plantdesk-report-local-sandbox-2026-06-summary.csv',
    ]);
    const summary = fs.readFileSync(path.join(folder, files[1]!), 'utf8');
    expect(summary.split('\r\n')[0]).toMatch(/^rank,plant,period,production kWh,/);
    expect(summary).toContain('Demo Home');
    // June has 30 days for each plant of the sandbox.
    const days = fs.readFileSync(path.join(folder, files[0]!), 'utf8').trim().split('\r\n');
    expect((days.length - 1) % 30).toBe(0);

    const settings = path.join(root, 'data', 'reports', 'schedule.json');
    if (process.platform !== 'win32') {
      expect(fs.statSync(settings).mode & 0o777).toBe(0o600);
      expect(fs.statSync(path.dirname(settings)).mode & 0o777).toBe(0o700);
    }
    expect(JSON.parse(fs.readFileSync(settings, 'utf8'))).toMatchObject({
      settings: { enabled: true, dayOfMonth: 1, folder },
      lastWritten: '2026-06',
    });
  });
});
