import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../electron/services/logger.ts';
import {
  createReportPrinter,
  PRINT_TIMEOUT_MS,
} from '../../../electron/services/reports/reportPrinter.ts';
import type { PreparedReport } from '../../../electron/ipc/contract.ts';
import { buildFleetReport } from '../../../server/domain/reports/index.ts';
import {
  parseReportPrintQuery,
  reportPrintAddress,
} from '../../../server/domain/reports/printRequest.ts';

const TOKEN = '0f0e0d0c-0b0a-4909-8807-060504030201';
const PLANT = '11111111-1111-4111-8111-111111111111';
const MARCH = { kind: 'month', year: 2026, month: 3 } as const;
/** The report the host made; the printer only hands it over, so an empty fleet does. */
const REPORT: PreparedReport = {
  fleet: buildFleetReport(MARCH, []),
  madeAt: '2026-04-01T06:00:00.000Z',
};

/** Fake windows the test sees opened, timers it fires by hand. */
function harness(options: { loadFails?: string; printHangs?: boolean } = {}) {
  const opened: { hash: string; destroyed: boolean; printed: number }[] = [];
  const timers = new Map<number, () => void>();
  let nextTimer = 1;
  const printer = createReportPrinter({
    open(hash, failed) {
      const window = { hash, destroyed: false, printed: 0 };
      opened.push(window);
      if (options.loadFails) queueMicrotask(() => failed(options.loadFails!));
      return {
        printToPDF() {
          window.printed += 1;
          return options.printHangs
            ? new Promise<Uint8Array>(() => {})
            : Promise.resolve(new TextEncoder().encode(`%PDF ${hash}`));
        },
        destroy() {
          window.destroyed = true;
        },
      };
    },
    newToken: () => TOKEN,
    setTimeout(run, ms) {
      expect(ms).toBe(PRINT_TIMEOUT_MS);
      timers.set(nextTimer, run);
      return nextTimer++;
    },
    clearTimeout: (handle) => void timers.delete(handle as number),
    log: silentLogger,
  });
  const fireTimers = () => [...timers.values()].forEach((run) => run());
  return { printer, opened, timers, fireTimers };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the print route’s address', () => {
  it('carries period, scope and token, and refuses anything malformed', () => {
    const hash = reportPrintAddress({ period: MARCH, scope: PLANT, token: TOKEN });
    expect(hash).toBe(`#/reports/print?period=2026-03&scope=${PLANT}&token=${TOKEN}`);
    const query = Object.fromEntries(new URLSearchParams(hash.split('?')[1]));
    expect(parseReportPrintQuery(query)).toEqual({ period: MARCH, scope: PLANT, token: TOKEN });
    expect(parseReportPrintQuery({ ...query, scope: 'fleet', period: '2025' })).toEqual({
      period: { kind: 'year', year: 2025 },
      scope: 'fleet',
      token: TOKEN,
    });
    expect(parseReportPrintQuery({ ...query, period: '2026-13' })).toBeNull();
    expect(parseReportPrintQuery({ ...query, scope: '../x' })).toBeNull();
    expect(parseReportPrintQuery({ ...query, token: undefined })).toBeNull();
  });
});

describe('the report printer', () => {
  it('prints the print route once the page says it is drawn, then destroys the window', async () => {
    const h = harness();
    const pdf = h.printer.render({ period: MARCH, scope: 'fleet' }, REPORT);
    await settle();
    expect(h.opened).toEqual([
      {
        hash: `#/reports/print?period=2026-03&scope=fleet&token=${TOKEN}`,
        destroyed: false,
        printed: 0,
      },
    ]);
    // The page asks for the report made for it by its token; another token gets none.
    expect(h.printer.prepared(TOKEN)).toBe(REPORT);
    expect(h.printer.prepared('99999999-9999-4999-8999-999999999999')).toBeNull();
    // Another page's answer (an unknown token) prints nothing.
    h.printer.ready({ token: '99999999-9999-4999-8999-999999999999', ok: true });
    expect(h.opened[0]!.printed).toBe(0);
    h.printer.ready({ token: TOKEN, ok: true });
    expect(new TextDecoder().decode(await pdf)).toBe(`%PDF ${h.opened[0]!.hash}`);
    expect(h.opened[0]).toMatchObject({ destroyed: true, printed: 1 });
    expect(h.timers.size).toBe(0);
    // Printed: the report is not handed out any more.
    expect(h.printer.prepared(TOKEN)).toBeNull();
  });

  it('fails with the page’s reason when the report could not be made', async () => {
    const h = harness();
    const pdf = h.printer.render({ period: MARCH, scope: PLANT }, REPORT);
    await settle();
    h.printer.ready({ token: TOKEN, ok: false, message: 'Report not made: Database unavailable' });
    await expect(pdf).rejects.toThrow('Report not made: Database unavailable');
    expect(h.opened[0]).toMatchObject({ destroyed: true, printed: 0 });
  });

  it('fails at the deadline, never leaving a hidden window, whether drawing or printing hangs', async () => {
    const silent = harness();
    const never = silent.printer.render({ period: MARCH, scope: 'fleet' }, REPORT);
    await settle();
    silent.fireTimers();
    await expect(never).rejects.toThrow(/not printed within 120000 ms/);
    expect(silent.opened[0]!.destroyed).toBe(true);
    expect(silent.printer.prepared(TOKEN)).toBeNull();
    // A late answer after the failure is ignored.
    silent.printer.ready({ token: TOKEN, ok: true });
    expect(silent.opened[0]!.printed).toBe(0);

    const hanging = harness({ printHangs: true });
    const stuck = hanging.printer.render({ period: MARCH, scope: 'fleet' }, REPORT);
    await settle();
    hanging.printer.ready({ token: TOKEN, ok: true });
    hanging.fireTimers();
    await expect(stuck).rejects.toThrow(/not printed within/);
    expect(hanging.opened[0]!.destroyed).toBe(true);
  });

  it('fails at once when the page does not load', async () => {
    const h = harness({ loadFails: 'ERR_FILE_NOT_FOUND (-6)' });
    await expect(h.printer.render({ period: MARCH, scope: 'fleet' }, REPORT)).rejects.toThrow(
      'The print window of fleet 2026-03 failed: ERR_FILE_NOT_FOUND (-6)',
    );
    expect(h.opened[0]!.destroyed).toBe(true);
    expect(h.timers.size).toBe(0);
  });
});
