import { z } from 'zod';
import { defineRoute } from './route.ts';
import { permission as p } from './permissions.ts';
import { Uuid } from './schemas/common.ts';
import { localDateParam } from './schemas/dates.ts';
import { DATA_HEALTH_DEFAULT_DAYS, PlantDataHealth } from './schemas/dataHealth.ts';
import { MAX_SUMMARY_DAYS } from './schemas/metrics.ts';

/** Data health: an extension of ours, beyond the specification and the decisions file. */

export const dataHealthRoutes = {
  getDataHealth: defineRoute({
    operationId: 'getDataHealth',
    method: 'GET',
    path: '/plants/{plantUuid}/data-health',
    tag: 'Fleet',
    summary: 'Coverage, gaps, counter resets, frozen values and suspicions per sensor (extension)',
    description: `Extension. For each sensor of the plant over local days \`startDate\` to \`endDate\` (yyyy-MM-dd, default the last ${DATA_HEALTH_DEFAULT_DAYS} days ending today): the share of each day with data (a reading holds until the next within 3 sampling intervals, else one interval; today up to now), gaps longer than 3 intervals, counter resets and negative deltas of ENERGY counters, values frozen far longer than the sensor's own history says is normal (PV and irradiance at rest while the sun is down do not count), and unit or sign suspicions of power sensors. \`startDate\` after \`endDate\`, or more than ${MAX_SUMMARY_DAYS} days: 422.`,
    auth: 'access',
    permissions: [p('SENSORS', 'READ')],
    ownership: true,
    extension: 'plantdesk',
    params: z.object({ plantUuid: Uuid }),
    query: z.object({
      startDate: localDateParam('startDate').optional(),
      endDate: localDateParam('endDate').optional(),
    }),
    status: 200,
    response: PlantDataHealth,
    extraErrors: [422],
  }),
};
