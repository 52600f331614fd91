import type { SensorStateCounts } from '../../../api/schemas/fleet.ts';
import type { PvHealthStatus } from '../composables/useFleet.ts';

/** How the fleet screen words its figures. */

export const STATUS_LABELS: Record<PvHealthStatus, string> = {
  FAULT: 'Fault',
  DEGRADED: 'Degraded',
  NO_DATA: 'No data',
  HEALTHY: 'Healthy',
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

const energy = new Intl.NumberFormat('en', { maximumFractionDigits: 1, minimumFractionDigits: 1 });
const yieldFormat = new Intl.NumberFormat('en', {
  maximumFractionDigits: 2,
  minimumFractionDigits: 2,
});

export const kwhText = (kwh: number | null) => (kwh === null ? '—' : `${energy.format(kwh)} kWh`);
export const yieldText = (value: number | null) =>
  value === null ? '—' : `${yieldFormat.format(value)} kWh/kWp`;
export const percentText = (value: number | null) =>
  value === null ? '—' : `${Math.round(value)} %`;

/** "6 of 7 reporting", "1 silent", "no sensors". */
export function sensorCountsText(counts: SensorStateCounts | null): string {
  if (counts === null) return '—';
  if (counts.total === 0) return 'No sensors';
  const problems = [
    counts.SILENT > 0 && `${counts.SILENT} silent`,
    counts.LATE > 0 && `${counts.LATE} late`,
    counts.NEVER > 0 && `${counts.NEVER} never reported`,
  ].filter(Boolean);
  return [`${counts.REPORTING} of ${counts.total} reporting`, ...problems].join(', ');
}
