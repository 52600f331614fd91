import { computed, toValue, type MaybeRefOrGetter } from 'vue';
import { useQuery } from '@tanstack/vue-query';
import type { PlantSensorStatuses, SensorStatus } from '../../../api/schemas/fleet.ts';
import { PlantDeskError, useBridge } from '../bridge.ts';
import { appNow } from '../clock.ts';
import { useExtensionSupportStore } from '../stores/useExtensionSupportStore.ts';
import { hasRecent } from './liveReadings.ts';
import { translate } from '../i18n.ts';
import { failureMessage } from './useFormErrors.ts';
import { clampRefreshInterval, MIN_REFRESH_MS } from './refreshInterval.ts';
import { useWindowHidden } from './useWindowHidden.ts';

/**
 * The freshness of every sensor of one plant (the `sensor-statuses` extension), read again at an
 * interval while the window is visible.
 *
 * A server without the extension answers 404 for the route: the environment is then remembered
 * as not serving it for the session (useExtensionSupportStore), `available` turns false, nothing
 * is asked again and the screens leave freshness out — no error. Any other failure is an error
 * (`error`), the statuses shown before are kept and the next tick tries again. The reads are
 * vue-query's: screens showing the same plant's freshness share them.
 *
 *   const freshness = useSensorStatuses(() => props.plantUuid);
 *   freshness.available.value // → false against a server started with --no-extensions
 *   freshness.byUuid.value.get(sensorUuid)?.state // → 'LATE'
 *
 * With `recent` (a live readings panel shown beside the freshness), the same reads ask for each
 * sensor's last 15 minutes too (`?recent=true`), every few seconds: one reader serves both
 * (useLiveReadings' `statuses` option). A server whose answer has no `recent` is remembered as
 * such for the session; its statuses still give the freshness.
 */

export const SENSOR_STATUSES_ROUTE = 'listSensorStatuses';
/** Marks the environment as serving sensor-statuses without `recent`. */
export const RECENT_FEATURE = 'sensorStatuses.recent';
export const DEFAULT_STATUS_REFRESH_MS = 30_000;
/** The live readings' interval: the shortest live refresh allows. */
export const RECENT_REFRESH_MS = MIN_REFRESH_MS;

export interface UseSensorStatusesOptions {
  /** Time between loads (clamped to 10 s..5 min); default 30 s. */
  intervalMs?: MaybeRefOrGetter<number>;
  /** False pauses the loads (a step of the wizard not shown); default true. */
  enabled?: MaybeRefOrGetter<boolean>;
  /** Ask for the last 15 minutes' readings too, every RECENT_REFRESH_MS; default false. */
  recent?: MaybeRefOrGetter<boolean>;
}

/** What a screen given the freshness as props shows (the wizard's verification step). */
export interface FreshnessSnapshot {
  statuses: PlantSensorStatuses | null;
  /** When the statuses were loaded (epoch ms): ages are counted to it. */
  loadedAt: number | null;
  error: string | null;
}

/**
 * True for a 404 that says the route is not there. Our server and Spring-style servers name a
 * missing plant (`Plant <uuid> not found`): that plant is gone, the route may well be served.
 */
export function isRouteMissing(caught: unknown): boolean {
  if (!(caught instanceof PlantDeskError) || caught.kind !== 'api' || caught.status !== 404) {
    return false;
  }
  return !/^plant\b.*\bnot found/i.test(caught.message);
}

/** One read of the statuses, or what the server said instead of them. */
type Freshness =
  | { kind: 'statuses'; statuses: PlantSensorStatuses; withRecent: boolean; loadedAt: number }
  | { kind: 'routeMissing' }
  | { kind: 'plantMissing' };

export function useSensorStatuses(
  plantUuid: MaybeRefOrGetter<string | null | undefined>,
  options: UseSensorStatusesOptions = {},
) {
  const bridge = useBridge();
  const support = useExtensionSupportStore();
  const hidden = useWindowHidden();

  const served = computed(() => support.isServed(SENSOR_STATUSES_ROUTE));
  /** The reads ask for `recent`: wanted, and the server has not shown it lacks it. */
  const asksRecent = computed(
    () => toValue(options.recent ?? false) && support.isServed(RECENT_FEATURE),
  );

  async function read(plant: string, recent: boolean): Promise<Freshness> {
    try {
      const answer = await bridge.call(
        SENSOR_STATUSES_ROUTE,
        recent
          ? { params: { plantUuid: plant }, query: { recent: true } }
          : { params: { plantUuid: plant } },
      );
      // A plant without sensors cannot tell; an answer without `recent` is a server without it.
      const lacksRecent = recent && answer.sensors.length > 0 && !hasRecent(answer.sensors);
      if (lacksRecent) support.markMissing(RECENT_FEATURE);
      return {
        kind: 'statuses',
        statuses: answer,
        withRecent: recent && !lacksRecent,
        loadedAt: appNow(),
      };
    } catch (caught) {
      if (isRouteMissing(caught)) {
        support.markMissing(SENSOR_STATUSES_ROUTE);
        return { kind: 'routeMissing' };
      }
      if (caught instanceof PlantDeskError && caught.status === 404)
        return { kind: 'plantMissing' };
      throw caught;
    }
  }

  const plant = computed(() => toValue(plantUuid) || null);
  const intervalMs = computed(() =>
    clampRefreshInterval(
      asksRecent.value
        ? RECENT_REFRESH_MS
        : toValue(options.intervalMs ?? DEFAULT_STATUS_REFRESH_MS),
    ),
  );
  const query = useQuery(
    computed(() => {
      const current = plant.value;
      const recent = asksRecent.value;
      return {
        queryKey: ['sensorStatuses', current, recent],
        queryFn: () => read(current!, recent),
        enabled: toValue(options.enabled ?? true) && current !== null && served.value,
        refetchInterval: intervalMs.value,
        // Asking for `recent` too, the statuses of the same plant stay shown meanwhile.
        placeholderData: (
          previous: Freshness | undefined,
          previousQuery?: { queryKey: readonly unknown[] },
        ) => (previousQuery?.queryKey[1] === current ? previous : undefined),
      };
    }),
  );

  const latest = computed(() => query.data.value);
  const shown = computed(() => (latest.value?.kind === 'statuses' ? latest.value : null));
  const plantMissing = computed(() => latest.value?.kind === 'plantMissing');
  const enabled = computed(
    () =>
      toValue(options.enabled ?? true) &&
      plant.value !== null &&
      served.value &&
      !plantMissing.value,
  );
  /** null until the first answer; false when the server does not serve freshness. */
  const available = computed<boolean | null>(() => {
    if (!served.value || plantMissing.value) return false;
    return shown.value ? true : null;
  });
  const statuses = computed(() => shown.value?.statuses ?? null);

  const byUuid = computed(
    () =>
      new Map<string, SensorStatus>(
        (statuses.value?.sensors ?? []).map((status) => [status.sensorUuid, status]),
      ),
  );

  return {
    statuses,
    byUuid,
    /** The plant's zone as the server answered it (times are shown in it). */
    zone: computed(() => statuses.value?.timezone ?? null),
    /** When the shown statuses were loaded (epoch ms, the app's clock): ages are counted to it. */
    loadedAt: computed(() => shown.value?.loadedAt ?? null),
    available,
    /** The statuses carry the sensors' `recent` readings (asked with `recent`, served). */
    withRecent: computed(() => shown.value?.withRecent ?? false),
    /** The reads ask for `recent` (wanted and not known to be missing). */
    asksRecent,
    error: computed(() =>
      query.error.value
        ? failureMessage(query.error.value, translate('dashboard.loadFailed'))
        : null,
    ),
    loading: query.isFetching,
    /** No reads: the window is hidden or the reads are not wanted. */
    paused: computed(() => hidden.value || !enabled.value),
    intervalMs,
    /** Loads now (after a save, or "Check again"); never rejects. */
    async refresh(): Promise<void> {
      if (enabled.value) await query.refetch();
    },
  };
}
