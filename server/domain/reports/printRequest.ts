import { parsePeriodKey, periodKey, type ReportPeriod } from './period.ts';

/**
 * What the desktop app's hidden print window is asked to print: a period's report of the fleet
 * or of one plant, and the token the page answers with when it is ready (so that only the page
 * the host opened can say so). It travels in the address of the renderer's print route, so the
 * host (which writes it) and the page (which reads it) share these two functions.
 */

export interface ReportPrintRequest {
  period: ReportPeriod;
  /** `fleet`, or a plant's uuid. */
  scope: 'fleet' | string;
}

export interface ReportPrintOrder extends ReportPrintRequest {
  token: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The print route's hash address: `#/reports/print?period=2026-03&scope=fleet&token=…`. */
export function reportPrintAddress(order: ReportPrintOrder): string {
  const query = new URLSearchParams({
    period: periodKey(order.period),
    scope: order.scope,
    token: order.token,
  });
  return `#/reports/print?${query.toString()}`;
}

/** The order in a print route's query, or null when any part is missing or malformed. */
export function parseReportPrintQuery(query: Record<string, unknown>): ReportPrintOrder | null {
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  const period = parsePeriodKey(text(query.period));
  const scope = text(query.scope);
  const token = text(query.token);
  if (!period || !UUID.test(token)) return null;
  if (scope !== 'fleet' && !UUID.test(scope)) return null;
  return { period, scope, token };
}
