import type { SensorStateCounts } from '../../../api/schemas/fleet.ts';
import type { Formatters } from '../../../i18n/format.ts';
import type { Translate } from '../../../i18n/translator.ts';
import type { PvHealthStatus } from '../composables/useFleet.ts';

/** How the fleet screen words its figures, in the language of the `t` and formatters given. */

/** The message key of each status (translated at render). */
export const STATUS_LABELS: Record<PvHealthStatus, string> = {
  FAULT: 'fleet.status.fault',
  DEGRADED: 'fleet.status.degraded',
  NO_DATA: 'fleet.status.noData',
  HEALTHY: 'fleet.status.healthy',
};

export const STATUS_SEVERITIES: Record<
  PvHealthStatus,
  'danger' | 'warn' | 'secondary' | 'success'
> = {
  FAULT: 'danger',
  DEGRADED: 'warn',
  NO_DATA: 'secondary',
  HEALTHY: 'success',
};

/** Worst first: the order of the status filter and of the totals. */
export const STATUS_ORDER: readonly PvHealthStatus[] = ['FAULT', 'DEGRADED', 'NO_DATA', 'HEALTHY'];

/** "12.3 kWh" / "12,3 kWh": one decimal always, so that a column of figures lines up. */
export const kwhText = (f: Formatters, kwh: number | null) =>
  kwh === null ? '—' : `${f.number(kwh, 1, 1)} kWh`;
export const yieldText = (f: Formatters, value: number | null) =>
  value === null ? '—' : `${f.number(value, 2, 2)} kWh/kWp`;
export const percentText = (f: Formatters, value: number | null) =>
  value === null ? '—' : `${f.number(Math.round(value), 0)} %`;

/** "6 of 7 reporting, 1 silent", "No sensors". */
export function sensorCountsText(t: Translate, counts: SensorStateCounts | null): string {
  if (counts === null) return '—';
  if (counts.total === 0) return t('fleet.sensorCounts.none');
  const problems = [
    counts.SILENT > 0 && t('fleet.sensorCounts.silent', {}, counts.SILENT),
    counts.LATE > 0 && t('fleet.sensorCounts.late', {}, counts.LATE),
    counts.NEVER > 0 && t('fleet.sensorCounts.never', {}, counts.NEVER),
  ].filter(Boolean);
  return [
    t('fleet.sensorCounts.reporting', { total: counts.total }, counts.REPORTING),
    ...problems,
  ].join(', ');
}
