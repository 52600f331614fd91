import { describe, expect, it } from 'vitest';
import { createTranslator } from '../../../i18n/translator.ts';
import type { JsonFileRead } from '../../../electron/services/dataFolder.ts';
import { silentLogger } from '../../../electron/services/logger.ts';
import { duePeriod, periodToWrite } from '../../../electron/services/reports/reportSchedule.ts';
import {
  CHECK_INTERVAL_MS,
  createReportScheduleService,
} from '../../../electron/services/reports/reportScheduleService.ts';
import type { ReportCall } from '../../../server/domain/reports/index.ts';
import type { ReportPrintRequest } from '../../../server/domain/reports/printRequest.ts';
import type { PreparedReport } from '../../../electron/ipc/contract.ts';

const ZONE = 'Europe/Madrid';
const madridDay = (at: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(at);
const ON = { enabled: true, dayOfMonth: 1, folder: '/reports' };

describe('when the monthly report is due', () => {
  it('is last month from the chosen day on, and the month before until then', () => {
    const on5th = { ...ON, dayOfMonth: 5 };
    expect(duePeriod(on5th, '2026-04-05')).toEqual({ kind: 'month', year: 2026, month: 3 });
    expect(duePeriod(on5th, '2026-04-04')).toEqual({ kind: 'month', year: 2026, month: 2 });
    expect(duePeriod(on5th, '2026-01-04')).toEqual({ kind: 'month', year: 2025, month: 11 });
  });

  it('writes only the latest due period, once, and nothing when off or without a folder', () => {
    expect(periodToWrite(ON, null, '2026-04-20')).toEqual({ kind: 'month', year: 2026, month: 3 });
    // Closed since January: February is not written any more, March once.
    expect(periodToWrite(ON, '2026-01', '2026-04-20')).toEqual({
      kind: 'month',
      year: 2026,
      month: 3,
    });
    expect(periodToWrite(ON, '2026-03', '2026-04-30')).toBeNull();
    expect(periodToWrite({ ...ON, enabled: false }, null, '2026-04-20')).toBeNull();
    expect(periodToWrite({ ...ON, folder: null }, null, '2026-04-20')).toBeNull();
  });
});

/** A pinned clock the test moves, an interval it fires, files in a map, a one-plant API. */
function harness(
  start: string,
  stored?: unknown,
  renderPdf?: (request: ReportPrintRequest, report: PreparedReport) => Promise<Uint8Array>,
) {
  let now = new Date(start);
  const intervals: (() => void)[] = [];
  const json = new Map<string, unknown>(stored ? [['/data/reports/schedule.json', stored]] : []);
  const written = new Map<string, string | Uint8Array>();
  const asked: string[] = [];
  const extraPlants: object[] = [];
  const call: ReportCall = async (route, input) => {
    asked.push(`${route} ${input.query?.startDate ?? ''}`);
    const series = (start: string, to: string) => ({
      plantUuid: 'p1',
      timezone: ZONE,
      unit: 'kWh',
      from: `${start}T00:00:00+01:00`,
      to,
      points: [{ timestamp: `${start}T00:00:00+01:00`, value: 10, coverage: 1 }],
    });
    switch (route) {
      case 'listPlants':
        return {
          content: [
            { plantUuid: 'p1', name: 'Roof', location: { timezone: ZONE }, pv: { peakPowerKw: 5 } },
            ...extraPlants,
          ],
          page: { totalPages: 1 },
        };
      case 'getDataHealth':
        return { sensors: [] };
      case 'summaryProduction':
      case 'summaryConsumption':
        return series(input.query!.startDate!, '2026-04-01T00:00:00+02:00');
      default:
        return {
          energyProducedKwh: 10,
          expectedEnergyKwh: 12,
          performancePercent: 83.3,
          performanceRatio: null,
          status: 'HEALTHY',
        };
    }
  };
  const service = createReportScheduleService({
    now: () => now,
    localDay: madridDay,
    setInterval: (run, ms) => {
      expect(ms).toBe(CHECK_INTERVAL_MS);
      intervals.push(run);
      return intervals.length;
    },
    clearInterval: () => intervals.splice(0),
    file: '/data/reports/schedule.json',
    readJson: (path): JsonFileRead =>
      json.has(path) ? { status: 'ok', value: json.get(path) } : { status: 'missing' },
    writeJson: (path, value) => json.set(path, structuredClone(value)),
    writeFile: async (path, data) => void written.set(path, data),
    ...(renderPdf && { renderPdf }),
    source: () => ({ deps: { call, statusOf: () => undefined }, environmentName: 'Local sandbox' }),
    t: () => createTranslator('de'),
    log: silentLogger,
  });
  const tick = async (to: string) => {
    now = new Date(to);
    for (const run of intervals) run();
    await service.check();
  };
  return { service, json, written, asked, tick, extraPlants };
}

const stored = (settings: typeof ON, lastWritten: string) => ({
  version: 1,
  settings,
  lastWritten,
  lastWrittenAt: null,
  lastError: null,
});

describe('the report schedule service', () => {
  it('writes March at the first check of 1 April local time, not on the evening of 31 March', async () => {
    const h = harness('2026-03-31T20:30:00Z', stored(ON, '2026-02'));
    h.service.start();
    await h.service.check();
    expect(h.written.size).toBe(0);
    // 23:30 in Madrid (CEST since the 29th), then 00:30 on 1 April.
    await h.tick('2026-03-31T21:30:00Z');
    expect(h.written.size).toBe(0);
    await h.tick('2026-03-31T22:30:00Z');
    expect([...h.written.keys()].sort()).toEqual([
      '/reports/plantdesk-report-local-sandbox-2026-03-days.csv',
      '/reports/plantdesk-report-local-sandbox-2026-03-summary.csv',
    ]);
    expect(h.written.get('/reports/plantdesk-report-local-sandbox-2026-03-summary.csv')).toMatch(
      /^Rang,Anlage,Zeitraum,.*\r\n1,Roof,2026-03,10,1,12,83\.3,2,,,,,10,1,[^\r\n]*,0,PLANT,10,10\r\n$/s,
    );
    expect(h.json.get('/data/reports/schedule.json')).toMatchObject({
      version: 1,
      lastWritten: '2026-03',
      lastWrittenAt: '2026-03-31T22:30:00.000Z',
      lastError: null,
    });
    expect(h.asked).toContain('summaryProduction 2026-03-01');
    h.service.stop();
  });

  it('writes once over the 25-hour day of October, whatever the hourly checks see', async () => {
    const h = harness('2026-10-24T20:30:00Z', stored({ ...ON, dayOfMonth: 25 }, '2026-08'));
    for (let hour = 21; hour < 48; hour += 1) {
      await h.tick(new Date(Date.parse('2026-10-24T00:30:00Z') + hour * 3_600_000).toISOString());
    }
    const files = [...h.written.keys()];
    expect(files).toHaveLength(2);
    expect(files[0]).toContain('2026-09');
    expect(h.asked.filter((line) => line.startsWith('listPlants'))).toHaveLength(1);
  });

  it('catches up a missed run once at the next start, from the settings it kept', async () => {
    const stored = {
      version: 1,
      settings: ON,
      lastWritten: '2026-01',
      lastWrittenAt: null,
      lastError: null,
    };
    const h = harness('2026-05-10T08:00:00Z', stored);
    h.service.start();
    await h.service.check();
    expect([...h.written.keys()].every((file) => file.includes('2026-04'))).toBe(true);
    expect(h.written.size).toBe(2);
    h.service.stop();
  });

  it('keeps settings it is given and refuses a day no month has for every month', () => {
    const h = harness('2026-05-10T08:00:00Z');
    expect(h.service.state().settings.enabled).toBe(false);
    expect(() => h.service.update({ enabled: true, dayOfMonth: 31 })).toThrow();
    h.service.update({ enabled: true, dayOfMonth: 28 });
    expect(h.service.setFolder('/chosen')).toMatchObject({
      available: true,
      settings: { enabled: true, dayOfMonth: 28, folder: '/chosen' },
    });
    expect(h.json.get('/data/reports/schedule.json')).toMatchObject({
      settings: { dayOfMonth: 28, folder: '/chosen' },
    });
  });
});

/** A fake print: the PDF's bytes name what was asked, so a file shows which document it holds. */
function fakePrint(log: ReportPrintRequest[], fail = () => false, handed: PreparedReport[] = []) {
  return async (request: ReportPrintRequest, report: PreparedReport) => {
    log.push(request);
    handed.push(report);
    if (fail()) throw new Error('The report (fleet 2026-03) was not printed within 120000 ms');
    return new TextEncoder().encode(`%PDF ${request.scope} ${request.period.kind}`);
  };
}

const text = (data: string | Uint8Array | undefined) =>
  typeof data === 'string' ? data : new TextDecoder().decode(data);

describe('the report schedule service with PDFs', () => {
  it('writes the fleet’s PDF and each plant’s beside the CSVs, plants of one name apart', async () => {
    const printed: ReportPrintRequest[] = [];
    const handed: PreparedReport[] = [];
    const h = harness(
      '2026-04-02T08:00:00Z',
      stored(ON, '2026-02'),
      fakePrint(printed, () => false, handed),
    );
    h.extraPlants.push(
      {
        plantUuid: 'a2345678-0000-4000-8000-000000000000',
        name: 'Barn',
        location: { timezone: ZONE },
        pv: null,
      },
      {
        plantUuid: 'b2345678-0000-4000-8000-000000000000',
        name: 'Barn',
        location: { timezone: ZONE },
        pv: null,
      },
    );
    await h.service.check();
    const base = '/reports/plantdesk-report-local-sandbox-2026-03';
    expect([...h.written.keys()].sort()).toEqual(
      [
        `${base}-days.csv`,
        `${base}-summary.csv`,
        `${base}.pdf`,
        `${base}-roof.pdf`,
        `${base}-barn-a2345678.pdf`,
        `${base}-barn-b2345678.pdf`,
      ].sort(),
    );
    expect(text(h.written.get(`${base}.pdf`))).toBe('%PDF fleet month');
    expect(text(h.written.get(`${base}-roof.pdf`))).toBe('%PDF p1 month');
    expect(printed[0]).toEqual({ period: { kind: 'month', year: 2026, month: 3 }, scope: 'fleet' });
    expect(printed.map((request) => request.scope)).toEqual([
      'fleet',
      'p1',
      'a2345678-0000-4000-8000-000000000000',
      'b2345678-0000-4000-8000-000000000000',
    ]);
    expect(h.service.state()).toMatchObject({ lastWritten: '2026-03', lastError: null });

    // Each print is handed the report made here for the CSVs: the fleet's, then each plant's
    // alone, all made at the run's time, as plain data that crosses IPC and HTTP unchanged.
    expect(handed.map((report) => report.fleet.plants.map((plant) => plant.plant.uuid))).toEqual([
      ['p1', 'a2345678-0000-4000-8000-000000000000', 'b2345678-0000-4000-8000-000000000000'],
      ['p1'],
      ['a2345678-0000-4000-8000-000000000000'],
      ['b2345678-0000-4000-8000-000000000000'],
    ]);
    expect(handed.every((report) => report.madeAt === '2026-04-02T08:00:00.000Z')).toBe(true);
    expect(handed[0]!.fleet).toMatchObject({ productionKwh: 30, alertCount: 0 });
    expect(handed[1]!.fleet.ranking).toEqual([
      { plantUuid: 'p1', name: 'Roof', specificYield: 2, rank: 1 },
    ]);
    for (const report of handed) {
      expect(structuredClone(report)).toEqual(report);
      expect(JSON.parse(JSON.stringify(report))).toEqual(report);
    }
    // The API is read once for the whole run: the CSVs' reads, none again for the PDFs.
    const withoutPdf = harness('2026-04-02T08:00:00Z', stored(ON, '2026-02'));
    withoutPdf.extraPlants.push(...h.extraPlants);
    await withoutPdf.service.check();
    expect(h.asked).toEqual(withoutPdf.asked);
  });

  it('a print that fails leaves the error and the period due, and the next check writes it', async () => {
    const printed: ReportPrintRequest[] = [];
    let failing = true;
    const h = harness(
      '2026-04-02T08:00:00Z',
      stored(ON, '2026-02'),
      fakePrint(printed, () => failing),
    );
    h.service.start();
    await h.service.check();
    expect(h.service.state()).toMatchObject({
      lastWritten: '2026-02',
      lastError: 'The report (fleet 2026-03) was not printed within 120000 ms',
    });
    expect([...h.written.keys()].some((file) => file.endsWith('.pdf'))).toBe(false);
    expect(h.json.get('/data/reports/schedule.json')).toMatchObject({ lastError: /not printed/ });

    failing = false;
    await h.tick('2026-04-02T09:00:00Z');
    expect(h.service.state()).toMatchObject({ lastWritten: '2026-03', lastError: null });
    expect([...h.written.keys()].filter((file) => file.endsWith('.pdf'))).toHaveLength(2);
    h.service.stop();
  });

  it('catches up at the next start with one set of PDFs, and none on later checks', async () => {
    const printed: ReportPrintRequest[] = [];
    const h = harness('2026-05-10T08:00:00Z', stored(ON, '2026-01'), fakePrint(printed));
    h.service.start();
    await h.service.check();
    await h.tick('2026-05-10T09:00:00Z');
    await h.tick('2026-05-11T09:00:00Z');
    expect(printed.map((request) => `${request.scope} ${request.period.kind}`)).toEqual([
      'fleet month',
      'p1 month',
    ]);
    expect(
      printed.every((request) => request.period.kind === 'month' && request.period.month === 4),
    ).toBe(true);
    h.service.stop();
  });
});
