import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { Alert } from '../../../electron/ipc/contract.ts';
import type { ApiClient } from '../../../electron/services/api/apiClient.ts';
import type { AcceptanceReadings } from '../../../electron/services/acceptance/acceptanceSources.ts';
import {
  createAcceptanceService,
  RECHECK_DELAY_MS,
  type AcceptanceService,
} from '../../../electron/services/acceptance/acceptanceService.ts';
import { createAcceptanceStore } from '../../../electron/services/acceptance/acceptanceStore.ts';
import type { LanguagePreference } from '../../../electron/services/languagePreference.ts';
import { silentLogger } from '../../../electron/services/logger.ts';
import type { AppLocale } from '../../../i18n/locales.ts';
import { createTranslator } from '../../../i18n/translator.ts';

/**
 * The re-check's scheduling on a fake clock over a real data folder: due while the app runs,
 * due at the next start (the app closed meanwhile), never before 24 hours, signed out until
 * sign-in, and a failed attempt retried.
 */

const PLANT = '11111111-2222-4333-8444-555555555555';
const COMMISSIONED = Date.parse('2026-06-21T10:00:00+02:00');
const MINUTE = 60_000;

let dataDir: string;
const services: AcceptanceService[] = [];
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'plantdesk-acceptance-'));
  vi.useFakeTimers({ now: COMMISSIONED });
});
afterEach(() => {
  for (const service of services.splice(0)) service.dispose();
  vi.useRealTimers();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A plant without PV whose data all arrived; `read` counts its calls. */
function readings(window: AcceptanceReadings['window']): AcceptanceReadings {
  const bucket = { startMs: window.startMs, endMs: window.endMs, value: 400, coverage: 1 };
  return { window, site: null, production: null, consumption: [bucket], sensors: null };
}

function service(
  options: {
    signedIn?: () => boolean;
    alerts?: Partial<Alert>[];
    read?: (window: AcceptanceReadings['window']) => Promise<AcceptanceReadings>;
    language?: Pick<LanguagePreference, 'translator' | 'effective'>;
  } = {},
) {
  const events: unknown[] = [];
  const read = vi.fn(
    async (_client: ApiClient, _plant: string, window: AcceptanceReadings['window']) =>
      options.read ? options.read(window) : readings(window),
  );
  const created = createAcceptanceService({
    store: createAcceptanceStore(dataDir, silentLogger),
    clientFor: () => ((options.signedIn ?? (() => true))() ? ({} as ApiClient) : null),
    openAlerts: () => (options.alerts ?? []) as Alert[],
    emit: ((event: string, payload: unknown) => events.push([event, payload])) as never,
    now: () => Date.now(),
    read,
    ...(options.language && { language: options.language }),
  });
  services.push(created);
  return { service: created, read, events };
}

describe('the acceptance re-check', () => {
  test('recorded once at commissioning, kept in the data folder 0600 in 0700', () => {
    const { service: acceptance, events } = service();
    acceptance.start();
    const first = acceptance.commissioned('local', { plantUuid: PLANT, plantName: 'Roof' });
    expect(first).toMatchObject({
      status: 'pending',
      commissionedAt: new Date(COMMISSIONED).toISOString(),
      dueAt: new Date(COMMISSIONED + RECHECK_DELAY_MS).toISOString(),
      result: null,
    });
    vi.setSystemTime(COMMISSIONED + 60 * MINUTE);
    // A later verification of the same plant keeps the first commissioning's time.
    expect(acceptance.commissioned('local', { plantUuid: PLANT, plantName: 'Roof' })).toEqual(
      first,
    );
    expect(events).toEqual([['acceptance.changed', { environmentId: 'local', plantUuid: PLANT }]]);
    const file = join(dataDir, 'acceptance', 'local.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(dataDir, 'acceptance')).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(file, 'utf8')).rechecks).toHaveLength(1);
  });

  test('due while the app runs: not a minute before 24 hours, then judged and kept', async () => {
    const { service: acceptance, read } = service({
      alerts: [{ plantUuid: PLANT, status: 'open', severity: 'warning', message: 'late' }],
    });
    acceptance.start();
    acceptance.commissioned('local', { plantUuid: PLANT, plantName: 'Roof' });
    await vi.advanceTimersByTimeAsync(RECHECK_DELAY_MS - MINUTE);
    expect(read).not.toHaveBeenCalled();
    expect(acceptance.get('local', PLANT)?.status).toBe('pending');

    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(read).toHaveBeenCalledTimes(1);
    expect(read.mock.calls[0]![2]).toEqual({
      startMs: COMMISSIONED,
      endMs: COMMISSIONED + RECHECK_DELAY_MS,
    });
    const done = acceptance.get('local', PLANT)!;
    expect(done.status).toBe('done');
    expect(done.result).toMatchObject({
      checkedAt: new Date(COMMISSIONED + RECHECK_DELAY_MS).toISOString(),
      status: 'warning',
    });
    expect(done.result!.findings.map((finding) => [finding.id, finding.status])).toEqual([
      ['dataCoverage', 'pass'],
      ['production', 'notApplicable'],
      ['openAlerts', 'warning'],
    ]);
    await vi.advanceTimersByTimeAsync(RECHECK_DELAY_MS);
    expect(read).toHaveBeenCalledTimes(1);
  });

  test('due while the app was closed: runs at the next start', async () => {
    const before = service();
    before.service.start();
    before.service.commissioned('local', { plantUuid: PLANT, plantName: 'Roof' });
    before.service.dispose();

    vi.setSystemTime(COMMISSIONED + RECHECK_DELAY_MS + 6 * 60 * MINUTE);
    const after = service();
    expect(after.service.get('local', PLANT)?.status).toBe('pending');
    after.service.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(after.read).toHaveBeenCalledTimes(1);
    const done = after.service.get('local', PLANT)!;
    expect(done.status).toBe('done');
    // Judged on the 24 hours after commissioning, checked when the app came back.
    expect(done.result).toMatchObject({
      windowStart: new Date(COMMISSIONED).toISOString(),
      checkedAt: new Date(COMMISSIONED + RECHECK_DELAY_MS + 6 * 60 * MINUTE).toISOString(),
    });
    const stored = JSON.parse(readFileSync(join(dataDir, 'acceptance', 'local.json'), 'utf8'));
    expect(stored.rechecks[0].status).toBe('done');
  });

  test('a start before 24 hours waits, and runs when the time comes', async () => {
    service().service.commissioned('local', { plantUuid: PLANT, plantName: 'Roof' });
    vi.setSystemTime(COMMISSIONED + 23 * 60 * MINUTE);
    const restarted = service();
    restarted.service.start();
    await vi.advanceTimersByTimeAsync(59 * MINUTE);
    expect(restarted.read).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(restarted.read).toHaveBeenCalledTimes(1);
  });

  test('signed out when due: pending until the sign-in runs it', async () => {
    let signedIn = false;
    const { service: acceptance, read } = service({ signedIn: () => signedIn });
    acceptance.start();
    acceptance.commissioned('local', { plantUuid: PLANT, plantName: 'Roof' });
    await vi.advanceTimersByTimeAsync(RECHECK_DELAY_MS + 30 * MINUTE);
    expect(read).not.toHaveBeenCalled();
    signedIn = true;
    await acceptance.runDue('local');
    expect(acceptance.get('local', PLANT)?.status).toBe('done');
  });

  test('a removed environment takes its re-checks with it', () => {
    const { service: acceptance } = service();
    acceptance.commissioned('local', { plantUuid: PLANT, plantName: 'Roof' });
    acceptance.forget('local');
    expect(acceptance.get('local', PLANT)).toBeNull();
    expect(service().service.get('local', PLANT)).toBeNull();
  });

  test('a failed attempt is kept with its reason and retried', async () => {
    let fail = true;
    const { service: acceptance, read } = service({
      read: async (window) => {
        if (fail) throw new Error('network down');
        return readings(window);
      },
    });
    acceptance.start();
    acceptance.commissioned('local', { plantUuid: PLANT, plantName: 'Roof' });
    await vi.advanceTimersByTimeAsync(RECHECK_DELAY_MS);
    expect(acceptance.get('local', PLANT)).toMatchObject({
      status: 'pending',
      lastError: 'network down',
    });
    fail = false;
    await vi.advanceTimersByTimeAsync(15 * MINUTE);
    expect(read).toHaveBeenCalledTimes(2);
    expect(acceptance.get('local', PLANT)).toMatchObject({ status: 'done', lastError: null });
  });

  test('worded when read, in the language of the moment; files from before read as they are', async () => {
    let locale: AppLocale = 'en';
    const { service: acceptance, events } = service({
      language: { effective: () => locale, translator: () => createTranslator(locale) },
    });
    acceptance.start();
    acceptance.commissioned('local', { plantUuid: PLANT, plantName: 'Roof' });
    await vi.advanceTimersByTimeAsync(RECHECK_DELAY_MS + MINUTE);
    const production = () => acceptance.get('local', PLANT)!.result!.findings[1]!;
    expect(production()).toMatchObject({
      title: 'Production against clear-sky expectation',
      finding: 'The plant has no PV settings (no PV plant): there is no production to expect.',
    });

    locale = 'de';
    events.length = 0;
    acceptance.languageChanged();
    expect(events).toEqual([['acceptance.changed', { environmentId: 'local', plantUuid: PLANT }]]);
    expect(production()).toMatchObject({
      title: 'Erzeugung im Vergleich zur Klarhimmel-Erwartung',
      finding:
        'Die Anlage hat keine PV-Einstellungen (keine PV-Anlage): Es ist keine Erzeugung zu erwarten.',
    });

    const old = structuredClone(acceptance.get('local', PLANT)!);
    old.result!.findings[1]!.finding = 'Production is not measured.';
    createAcceptanceStore(dataDir, silentLogger).save('old', [old]);
    expect(acceptance.get('old', PLANT)!.result!.findings[1]).toMatchObject({
      title: 'Erzeugung im Vergleich zur Klarhimmel-Erwartung',
      finding: 'Production is not measured.',
    });
  });
});
