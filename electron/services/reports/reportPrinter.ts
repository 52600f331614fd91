import type { PreparedReport, ReportPrintReady } from '../../ipc/contract.ts';
import {
  reportPrintAddress,
  type ReportPrintRequest,
} from '../../../server/domain/reports/printRequest.ts';
import { periodKey } from '../../../server/domain/reports/period.ts';
import type { Logger } from '../logger.ts';

/**
 * Prints a period's report to PDF without the user: a hidden window opens the renderer's print
 * route, which asks for the report the host already made (`reports.preparedReport` with the
 * token of its address: the schedule reads the API once, for the CSVs and every PDF), draws it
 * and says so (`reports.printReady` with the same token); the window is then printed and
 * destroyed. The window itself is the host's (Electron: a hidden, sandboxed BrowserWindow);
 * everything here is tested with a fake one.
 */

/** Long enough for a large fleet's month over a slow server; a run past it fails and retries. */
export const PRINT_TIMEOUT_MS = 120_000;

export interface PrintWindow {
  printToPDF(): Promise<Uint8Array>;
  destroy(): void;
}

export interface ReportPrinterDeps {
  /**
   * Opens a hidden window on the renderer's address plus `hash`; `failed` when it cannot load,
   * is closed or its page's process ends (the run then fails at once, not at the deadline).
   */
  open(hash: string, failed: (message: string) => void): PrintWindow;
  newToken(): string;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  timeoutMs?: number;
  log: Logger;
}

export interface ReportPrinter {
  /** `report`: the request's report, made by the host, which the print page draws. */
  render(request: ReportPrintRequest, report: PreparedReport): Promise<Uint8Array>;
  /** The print page's answer; one with an unknown token (a page we did not open) is ignored. */
  ready(signal: ReportPrintReady): void;
  /** The report of a print still waiting for its page; null for any other token. */
  prepared(token: string): PreparedReport | null;
}

interface Waiting {
  report: PreparedReport;
  answer(signal: ReportPrintReady): void;
}

export function createReportPrinter(deps: ReportPrinterDeps): ReportPrinter {
  const waiting = new Map<string, Waiting>();
  const timeoutMs = deps.timeoutMs ?? PRINT_TIMEOUT_MS;

  async function render(request: ReportPrintRequest, report: PreparedReport): Promise<Uint8Array> {
    const token = deps.newToken();
    const what = `${request.scope} ${periodKey(request.period)}`;
    let timer: unknown;
    let window: PrintWindow | undefined;
    try {
      // One deadline for drawing and printing: a page or a print that never answers fails the run.
      return await new Promise<Uint8Array>((resolve, reject) => {
        timer = deps.setTimeout(
          () => reject(new Error(`The report (${what}) was not printed within ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiting.set(token, {
          report,
          answer(signal) {
            waiting.delete(token);
            if (!signal.ok)
              reject(new Error(signal.message ?? `The report (${what}) could not be made`));
            else if (!window) reject(new Error(`The print window of ${what} is gone`));
            else window.printToPDF().then(resolve, reject);
          },
        });
        window = deps.open(reportPrintAddress({ ...request, token }), (message) =>
          reject(new Error(`The print window of ${what} failed: ${message}`)),
        );
      });
    } finally {
      deps.clearTimeout(timer);
      waiting.delete(token);
      try {
        window?.destroy();
      } catch (error) {
        deps.log.warn('Print window not destroyed', { error: String(error) });
      }
    }
  }

  return {
    render,
    ready(signal) {
      const print = waiting.get(signal.token);
      if (!print) {
        deps.log.warn('Report print answer for no open print window ignored');
        return;
      }
      print.answer(signal);
    },
    prepared(token) {
      return waiting.get(token)?.report ?? null;
    },
  };
}
