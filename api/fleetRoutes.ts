import { z } from 'zod';
import { defineRoute } from './route.ts';
import { permission as p } from './permissions.ts';
import { pageOf, Uuid } from './schemas/common.ts';
import {
  booleanParam,
  enumListParam,
  listQueryShape,
  stringListParam,
  uuidListParam,
} from './schemas/query.ts';
import { PV_HEALTH_STATUSES } from './schemas/metrics.ts';
import { PLANT_SUMMARY_SORT, PlantSensorStatuses, PlantSummary } from './schemas/fleet.ts';

/** Fleet monitoring: extensions of ours, beyond the specification and the decisions file. */

export const fleetRoutes = {
  listPlantSummaries: defineRoute({
    operationId: 'listPlantSummaries',
    method: 'GET',
    path: '/plant-summaries',
    tag: 'Fleet',
    summary: 'Every plant of the organization at a glance (extension)',
    description:
      "Extension. The plants of `GET /plants` (same `page`, `size`, `search`, `plantUuids`, `externalIds`) with today's production and consumption, specific yield, PV health of the last 7 full days, the latest reading and the sensors by freshness state. `sort` takes any field (`status` by severity: HEALTHY, NO_DATA, DEGRADED, FAULT; empty values last); default `name`. Energy figures need PLANT_POWER_PRODUCTION READ or PLANT_POWER_CONSUMPTION READ, PV health PLANT_HEALTH READ: without them they are null (and a `status` filter matches nothing), never a 403. A plant's figures may be up to a minute old: its summary is computed again when older than 60 s or when the plant changed (sensor-statuses is always live).",
    auth: 'access',
    permissions: [p('PLANTS', 'READ')],
    ownership: false,
    extension: 'plantdesk',
    query: z.object({
      ...listQueryShape(PLANT_SUMMARY_SORT),
      plantUuids: uuidListParam('plantUuids').meta({
        description: 'Comma-separated or repeated plant UUIDs',
      }),
      externalIds: stringListParam().meta({
        description: 'Comma-separated or repeated external ids',
      }),
      status: enumListParam('status', PV_HEALTH_STATUSES).meta({
        description:
          'Only plants with one of these PV health statuses (comma-separated or repeated)',
      }),
    }),
    sortable: PLANT_SUMMARY_SORT,
    status: 200,
    response: pageOf(PlantSummary),
  }),
  listSensorStatuses: defineRoute({
    operationId: 'listSensorStatuses',
    method: 'GET',
    path: '/plants/{plantUuid}/sensor-statuses',
    tag: 'Fleet',
    summary: 'Freshness of every sensor of a plant (extension)',
    description:
      'Extension. Per sensor: the last reading and its value with unit, when the value last changed, the expected interval, the freshness state (REPORTING, LATE after 3 intervals, SILENT after 3 intervals and 15 minutes, NEVER) and the share of the last 24 hours with data. With `recent=true`, also its readings of the last 15 minutes (`recent`, at most one a minute) for live views.',
    auth: 'access',
    permissions: [p('SENSORS', 'READ')],
    ownership: true,
    extension: 'plantdesk',
    params: z.object({ plantUuid: Uuid }),
    query: z.object({
      recent: booleanParam('recent').meta({
        description:
          "Add each sensor's readings of the last 15 minutes (`recent`); default false, and the field is left out",
      }),
    }),
    status: 200,
    response: PlantSensorStatuses,
  }),
};
