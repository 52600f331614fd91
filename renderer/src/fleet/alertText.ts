import type { RouteLocationRaw } from 'vue-router';
import type { Alert, AlertRule } from '../../../electron/ipc/contract.ts';

/** How the alerts screens name rules and where an alert's evidence is. */

export const RULE_LABELS: Record<AlertRule, string> = {
  SENSOR_SILENT: 'Sensor silent',
  PV_HEALTH: 'PV health',
  NO_PRODUCTION: 'No production',
  ABOVE_CLEAR_SKY: 'Above clear sky',
  GRID_SIGN: 'Grid meter sign',
  METER_UNITS: 'Meter units',
  SOC_STUCK: 'Battery charge stuck',
};

/** The screen that shows what the alert measured. */
export function evidenceRoute(alert: Alert): RouteLocationRaw {
  const params = { plantUuid: alert.plantUuid };
  switch (alert.link.view) {
    case 'dashboard':
      return { name: 'plantDashboard', params };
    case 'sensors':
      return { name: 'plantSensors', params };
    case 'history':
      return {
        name: 'plantAnalytics',
        params: { ...params, tab: 'history' },
        query: {
          start: alert.link.start,
          end: alert.link.end,
          granularity: alert.link.granularity,
        },
      };
  }
}
