import type { RouteLocationRaw } from 'vue-router';
import type { Alert, AlertRule } from '../../../electron/ipc/contract.ts';

/** How the alerts screens name rules and where an alert's evidence is. */

/** The message key of each rule's name (translated at render: `t(RULE_LABELS[rule])`). */
export const RULE_LABELS: Record<AlertRule, string> = {
  SENSOR_SILENT: 'alerts.rules.sensorSilent',
  PV_HEALTH: 'alerts.rules.pvHealth',
  NO_PRODUCTION: 'alerts.rules.noProduction',
  ABOVE_CLEAR_SKY: 'alerts.rules.aboveClearSky',
  GRID_SIGN: 'alerts.rules.gridSign',
  METER_UNITS: 'alerts.rules.meterUnits',
  SOC_STUCK: 'alerts.rules.socStuck',
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
