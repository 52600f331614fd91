import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { PreparedReport, ReportScheduleState } from '../../electron/ipc/contract.ts';
import { PDF_OPTIONS } from '../../electron/main/pdfExport.ts';
import {
  appUnderTest,
  startStandInApp,
  TEST_CLOCK,
  type StandInApp,
} from './standInElectron/harness.ts';
import type { StandInState } from './standInElectron/protocol.ts';

/**
 * The report schedule's PDFs through the built main process in the stand-in Electron: a due
 * schedule opens a hidden, sandboxed window on the renderer's print route per report, prints it
 * once its page says it is drawn, writes the PDF beside the CSVs and destroys the window. The
 * stand-in runs no page scripts, so the test speaks for the print page through its own preload,
 * as ReportPrintView does: it asks for the report the host made (`reports.preparedReport` with
 * the token of its address), then says it is drawn (`reports.printReady`).
 */

const PRINT_ROUTE = '#/reports/print?';
const BASE = 'plantdesk-report-local-sandbox-2026-05';

let app: StandInApp;
let folder: string;

let home: string;

beforeAll(async () => {
  home = mkdtempSync(path.join(os.tmpdir(), 'plantdesk-standin-'));
  folder = path.join(home, 'Reports');
  mkdirSync(folder);
  app = await startStandInApp({
    appRoot: appUnderTest(),
    clock: TEST_CLOCK,
    home,
    env: { STANDIN_ELECTRON_OPEN_DIALOG: folder },
  });
}, 120_000);

afterAll(async () => {
  await app?.close();
  rmSync(home, { recursive: true, force: true });
});

const printWindows = (state: StandInState) =>
  state.windows.filter((window) => window.url.includes(PRINT_ROUTE));

async function scheduleState(): Promise<ReportScheduleState> {
  const answer = (await app.call('reports.schedule')) as { value: ReportScheduleState };
  return answer.value;
}

test('a due schedule prints each report in a hidden window, writes the PDFs and destroys the windows', async () => {
  await app.untilSandboxRunning();
  expect(
    await app.call('session.signIn', {
      email: 'admin@plantdesk.test',
      password: 'admin-pass-1',
      remember: false,
    }),
  ).toMatchObject({ ok: true, value: { status: 'signedIn' } });
  expect(await app.call('reports.chooseFolder')).toMatchObject({
    ok: true,
    value: { settings: { folder } },
  });
  // 21 June: May's reports are due at once.
  await app.call('reports.updateSchedule', { enabled: true, dayOfMonth: 1 });

  const answered = new Set<string>();
  const handed: { scope: string; plants: string[]; madeAt: string }[] = [];
  const deadline = Date.now() + 90_000;
  let state: ReportScheduleState;
  for (;;) {
    state = await scheduleState();
    if (state.lastWritten || state.lastError || Date.now() > deadline) break;
    const open = printWindows(await app.state()).filter((window) => !window.destroyed);
    for (const window of open) {
      const token = new URLSearchParams(window.url.split('?')[1]).get('token')!;
      if (answered.has(token)) continue;
      answered.add(token);
      const prepared = (await app.callFrom(`token=${token}`, 'reports.preparedReport', {
        token,
      })) as { ok: boolean; value: PreparedReport };
      expect(prepared.ok).toBe(true);
      handed.push({
        scope: new URLSearchParams(window.url.split('?')[1]).get('scope')!,
        plants: prepared.value.fleet.plants.map((plant) => plant.plant.uuid),
        madeAt: prepared.value.madeAt,
      });
      expect(
        await app.callFrom(`token=${token}`, 'reports.printReady', { token, ok: true }),
      ).toEqual({ ok: true });
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(state).toMatchObject({ lastWritten: '2026-05', lastError: null });

  const plants = (await app.call('api.call', 'listPlants', { query: { size: 100 } })) as {
    value: { content: { plantUuid: string }[] };
  };
  const plantCount = plants.value.content.length;
  const files = readdirSync(folder).sort();
  expect(files).toContain(`${BASE}-summary.csv`);
  expect(files).toContain(`${BASE}-days.csv`);
  expect(files).toContain(`${BASE}.pdf`);
  expect(files).toContain(`${BASE}-demo-home.pdf`);
  expect(files.filter((file) => file.endsWith('.pdf'))).toHaveLength(1 + plantCount);
  // Each window was handed the report made for the CSVs: the fleet's, then each plant's alone.
  const uuids = plants.value.content.map((plant) => plant.plantUuid).sort();
  expect(handed[0]).toMatchObject({ scope: 'fleet' });
  expect([...handed[0]!.plants].sort()).toEqual(uuids);
  for (const print of handed.slice(1)) expect(print.plants).toEqual([print.scope]);
  expect(new Set(handed.map((print) => print.madeAt)).size).toBe(1);

  // The fleet's PDF is the print of the fleet's print route, with the "Save as PDF" options.
  const fleetPdf = readFileSync(path.join(folder, `${BASE}.pdf`), 'utf8');
  expect(fleetPdf.startsWith('%PDF-')).toBe(true);
  expect(fleetPdf).toMatch(
    /app:\/\/plantdesk\/index\.html#\/reports\/print\?period=2026-05&scope=fleet&token=/,
  );
  expect(fleetPdf).toContain(JSON.stringify(PDF_OPTIONS));

  const after = await app.state();
  const windows = printWindows(after);
  expect(windows).toHaveLength(1 + plantCount);
  expect(after.printed).toHaveLength(1 + plantCount);
  const [main] = after.windows;
  for (const window of windows) {
    // Destroyed, never shown, under the main window's policy, and no app events sent to it.
    expect(window).toMatchObject({ destroyed: true, visible: false, shownBeforeReady: false });
    expect(window.options.show).toBe(false);
    expect(window.webPreferences).toEqual({ ...main!.webPreferences, devTools: false });
    expect(window.eventsSent).toEqual([]);
  }
  expect(main!.destroyed).toBe(false);
  expect(after.errors).toEqual([]);

  // The contract checks the answer's arguments, and only our windows may send it.
  const token = new URLSearchParams(windows[0]!.url.split('?')[1]).get('token')!;
  expect(await app.call('reports.printReady', { token: 'not-a-token', ok: true })).toMatchObject({
    ok: false,
    error: { kind: 'invalidArguments' },
  });
  expect(await app.call('reports.printReady', { token, ok: true, path: '/etc' })).toMatchObject({
    ok: false,
    error: { kind: 'invalidArguments' },
  });
  expect(
    await app.callAs('foreignContents', 'reports.printReady', { token, ok: true }),
  ).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
  // The prepared report is for print windows only, and only while one waits for it.
  expect(await app.call('reports.preparedReport', { token })).toMatchObject({
    ok: false,
    error: { kind: 'forbidden' },
  });
  expect(await app.callAs('foreignContents', 'reports.preparedReport', { token })).toMatchObject({
    ok: false,
    error: { kind: 'forbidden' },
  });
  // A late answer for a window already printed changes nothing.
  expect(await app.call('reports.printReady', { token, ok: true })).toEqual({ ok: true });

  // Written once: a later check finds nothing due and opens no window.
  await app.call('reports.updateSchedule', { enabled: true, dayOfMonth: 1 });
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(printWindows(await app.state())).toHaveLength(1 + plantCount);
}, 180_000);
