import { DateTime } from 'luxon';
import { computed, toValue, type MaybeRefOrGetter } from 'vue';
import { useQuery } from '@tanstack/vue-query';
import type { SensorStatus } from '../../../api/schemas/fleet.ts';
import type { Plant } from '../../../api/schemas/plants.ts';
import { useBridge } from '../bridge.ts';
import { appNow } from '../clock.ts';
import { useExtensionSupportStore } from '../stores/useExtensionSupportStore.ts';
import { measuredFlows, type EnergyFlow } from './commissioningChecks.ts';
import {
  fromFlows,
  fromStatuses,
  hasRecent,
  LIVE_WINDOW_MS,
  pointsOfHistory,
  type LivePoint,
  type LiveReadings,
} from './liveReadings.ts';
import { fetchPlantSensors } from './useCatalogOptions.ts';
import { translate } from '../i18n.ts';
import { failureMessage } from './useFormErrors.ts';
import { clampRefreshInterval } from './refreshInterval.ts';
import { useWindowHidden } from './useWindowHidden.ts';
import {
  isRouteMissing,
  RECENT_FEATURE,
  RECENT_REFRESH_MS,
  SENSOR_STATUSES_ROUTE,
  type useSensorStatuses,
} from './useSensorStatuses.ts';

/**
 * Every sensor's readings of the last 15 minutes, read again every few seconds while shown and
 * the window is visible (a vue-query query polled at the interval). Asks `sensor-statuses?recent=true` first; a server
 * without the route (404) or without `recent` in its answer is read through the
 * specification's sensor-history routes instead, for the rest of the session
 * (liveReadings.ts says what each source can show).
 *
 *   const live = useLiveReadings(() => plant.value, { enabled: () => step === 'sensors' });
 *   live.readings.value?.sensors[0].recent // → [{ at: 1711700000000, value: 1234 }, …]
 *
 * Given the page's freshness reader (`statuses`, asked with `recent`), the readings come from
 * its answers while it has them: the page reads sensor-statuses once per tick, not twice.
 */

/** "Every few seconds": the shortest interval live refresh allows. */
export const LIVE_READINGS_REFRESH_MS = RECENT_REFRESH_MS;
/** The sensor-history routes' local date-time format. */
const LOCAL_MINUTE = "yyyy-MM-dd'T'HH:mm";

const HISTORY_ROUTES = {
  production: 'historyProduction',
  consumption: 'historyConsumption',
} as const;

export type LivePlant = Pick<Plant, 'plantUuid'> & {
  location: Pick<Plant['location'], 'timezone'>;
};

/** What a step given the live readings as a prop shows (LiveReadingsPanel's props). */
export interface LiveReadingsView {
  readings: LiveReadings | null;
  error: string | null;
  loading: boolean;
  paused: boolean;
  intervalMs: number;
}

export interface UseLiveReadingsOptions {
  /** False pauses the loads (the step or page is not shown); default true. */
  enabled?: MaybeRefOrGetter<boolean>;
  /** Default LIVE_READINGS_REFRESH_MS. */
  intervalMs?: MaybeRefOrGetter<number>;
  /** The page's sensor-statuses reader, asked with `recent`: its answers are the readings. */
  statuses?: ReturnType<typeof useSensorStatuses>;
}

export function useLiveReadings(
  plant: MaybeRefOrGetter<LivePlant | null | undefined>,
  options: UseLiveReadingsOptions = {},
) {
  const bridge = useBridge();
  const support = useExtensionSupportStore();
  const reader = options.statuses;
  /** The reader reads the recent readings (or is about to): nothing to read here. */
  const fromReader = computed(
    () => reader !== undefined && (reader.asksRecent.value || reader.withRecent.value),
  );
  const readerReadings = computed<LiveReadings | null>(() => {
    const answer = reader?.statuses.value;
    const loadedAt = reader?.loadedAt.value;
    if (!reader?.withRecent.value || !answer || loadedAt == null) return null;
    return {
      mode: 'extension',
      sensors: fromStatuses(answer.sensors, loadedAt),
      flows: {},
      loadedAt,
    };
  });

  async function readFlow(target: LivePlant, flow: EnergyFlow, nowMs: number) {
    const local = DateTime.fromMillis(nowMs, { zone: target.location.timezone }).startOf('minute');
    const series = await bridge.call(HISTORY_ROUTES[flow], {
      params: { plantUuid: target.plantUuid },
      query: {
        startDate: local.minus({ milliseconds: LIVE_WINDOW_MS }).toFormat(LOCAL_MINUTE),
        endDate: local.plus({ minutes: 1 }).toFormat(LOCAL_MINUTE),
        granularity: 'seconds',
      },
    });
    return pointsOfHistory(series.points);
  }

  /** The extension's answer, or null when the server does not have it. */
  async function readRecent(target: LivePlant): Promise<SensorStatus[] | null> {
    if (!support.isServed(SENSOR_STATUSES_ROUTE) || !support.isServed(RECENT_FEATURE)) return null;
    try {
      const answer = await bridge.call(SENSOR_STATUSES_ROUTE, {
        params: { plantUuid: target.plantUuid },
        query: { recent: true },
      });
      const statuses = answer.sensors;
      // A plant without sensors cannot tell; an answer without `recent` is a server without it.
      if (statuses.length > 0 && !hasRecent(statuses)) {
        support.markMissing(RECENT_FEATURE);
        return null;
      }
      return statuses;
    } catch (caught) {
      if (!isRouteMissing(caught)) throw caught;
      support.markMissing(SENSOR_STATUSES_ROUTE);
      return null;
    }
  }

  async function readThroughSpecification(target: LivePlant, nowMs: number): Promise<LiveReadings> {
    const sensors = await fetchPlantSensors(target.plantUuid);
    const flows = measuredFlows(sensors);
    const series = await Promise.all(flows.map((flow) => readFlow(target, flow, nowMs)));
    const byFlow: Partial<Record<EnergyFlow, LivePoint[]>> = {};
    flows.forEach((flow, index) => (byFlow[flow] = series[index]!));
    return {
      mode: 'specification',
      sensors: fromFlows(sensors, byFlow, nowMs),
      flows: byFlow,
      loadedAt: nowMs,
    };
  }

  async function load(target: LivePlant): Promise<LiveReadings> {
    const nowMs = appNow();
    const recent = await readRecent(target);
    return recent
      ? { mode: 'extension', sensors: fromStatuses(recent, nowMs), flows: {}, loadedAt: nowMs }
      : readThroughSpecification(target, nowMs);
  }

  const shown = computed(() => toValue(options.enabled ?? true) && Boolean(toValue(plant)));
  const enabled = computed(() => shown.value && !fromReader.value);
  const intervalMs = computed(() =>
    clampRefreshInterval(toValue(options.intervalMs ?? LIVE_READINGS_REFRESH_MS)),
  );
  const hidden = useWindowHidden();
  const query = useQuery(
    computed(() => {
      const target = toValue(plant);
      return {
        queryKey: ['liveReadings', target?.plantUuid ?? null, target?.location.timezone ?? null],
        queryFn: () => load(target!),
        enabled: enabled.value,
        refetchInterval: intervalMs.value,
      };
    }),
  );

  const readings = computed(() =>
    fromReader.value ? readerReadings.value : (query.data.value ?? null),
  );
  const error = computed(() =>
    fromReader.value
      ? reader!.error.value
      : query.error.value
        ? failureMessage(query.error.value, translate('dashboard.loadFailed'))
        : null,
  );
  const loading = computed(() =>
    fromReader.value ? reader!.loading.value : query.isFetching.value,
  );
  const paused = computed(() =>
    fromReader.value ? reader!.paused.value : hidden.value || !enabled.value,
  );

  /** The panel's props, for a step that is given them. */
  const view = computed<LiveReadingsView>(() => ({
    readings: readings.value,
    error: error.value,
    loading: loading.value,
    paused: paused.value,
    intervalMs: fromReader.value ? reader!.intervalMs.value : intervalMs.value,
  }));

  return {
    readings,
    view,
    error,
    loading,
    paused,
    /** Reads now (after a sensor was saved, or on request); never rejects. */
    async refresh(): Promise<void> {
      if (fromReader.value) return reader!.refresh();
      if (enabled.value) await query.refetch();
    },
  };
}
