import type { SensorFlow } from '../../../../api/schemas/sensors.ts';

/** How each flow reads in selects and tables, sign conventions included. */
export const FLOW_LABELS: Record<SensorFlow, string> = {
  CONSUMPTION: 'Consumption',
  PRODUCTION: 'Production',
  GRID: 'Grid (+ import, − export)',
  STORAGE: 'Storage (+ discharge, − charge)',
  AMBIENT: 'Ambient',
};

/** Short names for table cells. */
export const FLOW_SHORT: Record<SensorFlow, string> = {
  CONSUMPTION: 'Consumption',
  PRODUCTION: 'Production',
  GRID: 'Grid',
  STORAGE: 'Storage',
  AMBIENT: 'Ambient',
};

/**
 * What became of a saved sensor's connection test: run and passed, skipped on request, not run
 * because the connection did not change, or no connection at all. `failed` is never emitted
 * with `saved` (the save fails); forms show it while the user corrects the address.
 */
export type ConnectionOutcome = 'passed' | 'skipped' | 'unchanged' | 'none' | 'failed';

export const CONNECTION_OUTCOME_TEXT: Record<ConnectionOutcome, string> = {
  passed: 'Connection test passed.',
  skipped: 'Connection test skipped.',
  unchanged: 'Connection unchanged; not tested again.',
  none: 'No connection: readings arrive through the readings endpoint.',
  failed: 'Connection test failed.',
};

/** The sensor form's fields: where a refusal of the server lands (by the field it names). */
export const SENSOR_FORM_FIELDS = [
  'name',
  'sensorTypeUuid',
  'dataTypesCollectUuids',
  'flow',
  'connection',
  'samplingIntervalSeconds',
  'deviceUuid',
  'signInverted',
] as const;
