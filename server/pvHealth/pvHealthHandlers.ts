import type { ServerContext } from '../context.ts';
import type { RouteHandlers } from '../http/routing.ts';
import { formatLocal, localDay } from '../measurements/metrics/localTime.ts';
import { assessPvHealth } from './pvHealthAssessment.ts';
import { gatherPvHealthFacts } from './pvHealthInputs.ts';
import { healthRange } from './pvHealthRange.ts';
import { resolvePvHealthThresholds } from './pvHealthThresholds.ts';

type PvHealthHandlers = Pick<RouteHandlers, 'pvHealth'>;

/** Produced against expected energy, performance ratio, status and indicators of a PV plant. */
export function pvHealthHandlers({ db, now, pvHealth }: ServerContext): PvHealthHandlers {
  const thresholds = resolvePvHealthThresholds(pvHealth);
  return {
    pvHealth: async ({ plant, query }) => {
      const zone = plant.timezone;
      const range = healthRange(zone, query.startDate, query.endDate, now());
      const facts = await gatherPvHealthFacts(db, plant, range);
      return {
        plantUuid: plant.plant_uuid,
        timezone: zone,
        from: formatLocal(zone, localDay(zone, range.first).start),
        to: formatLocal(zone, localDay(zone, range.last).end),
        ...assessPvHealth(facts, thresholds),
      };
    },
  };
}
