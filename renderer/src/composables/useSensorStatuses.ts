import { computed, ref, shallowRef, toValue, watch, type MaybeRefOrGetter } from 'vue';
import type { PlantSensorStatuses, SensorStatus } from '../../../api/schemas/fleet.ts';
import { PlantDeskError, useBridge } from '../bridge.ts';
import { appNow } from '../clock.ts';
import { useExtensionSupportStore } from '../stores/useExtensionSupportStore.ts';
import { hasRecent } from './liveReadings.ts';
import { failureMessage } from './useDashboard.ts';
import { MIN_REFRESH_MS, useLiveRefresh } from './useLiveRefresh.ts';

/**
 * The freshness of every sensor of one plant (the `sensor-statuses` extension), read again at an
 * interval while the window is visible.
 *
 * A server without the extension answers 404 for the route: the environment is then remembered
 * as not serving it for the session (useExtensionSupportStore), `available` turns false, nothing
 * is asked again and the screens leave freshness out — no error. Any other failure is an error
 * (`error`), the statuses shown before are kept and the next tick tries again.
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
  /** Time between loads (clamped by useLiveRefresh to 10 s..5 min); default 30 s. */
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

export function useSensorStatuses(
  plantUuid: MaybeRefOrGetter<string | null | undefined>,
  options: UseSensorStatusesOptions = {},
) {
  const bridge = useBridge();
  const support = useExtensionSupportStore();

  const statuses = shallowRef<PlantSensorStatuses | null>(null);
  const error = ref<string | null>(null);
  /** When the shown statuses were loaded (epoch ms, the app's clock): ages are counted to it. */
  const loadedAt = ref<number | null>(null);
  /** This plant answered 404 as a missing plant: nothing to show, nothing to ask again. */
  const plantMissing = ref(false);

  const served = computed(() => support.isServed(SENSOR_STATUSES_ROUTE));
  /** The reads ask for `recent`: wanted, and the server has not shown it lacks it. */
  const asksRecent = computed(
    () => toValue(options.recent ?? false) && support.isServed(RECENT_FEATURE),
  );
  /** The shown statuses carry each sensor's `recent` readings. */
  const withRecent = ref(false);
  /** null until the first answer; false when the server does not serve freshness. */
  const available = computed<boolean | null>(() => {
    if (!served.value || plantMissing.value) return false;
    return statuses.value ? true : null;
  });

  async function load(): Promise<void> {
    const plant = toValue(plantUuid);
    if (!plant || !served.value) return;
    const recent = asksRecent.value;
    try {
      const answer = await bridge.call(
        SENSOR_STATUSES_ROUTE,
        recent
          ? { params: { plantUuid: plant }, query: { recent: true } }
          : { params: { plantUuid: plant } },
      );
      // Another plant was chosen while this one loaded.
      if (toValue(plantUuid) !== plant) return;
      // A plant without sensors cannot tell; an answer without `recent` is a server without it.
      const lacksRecent = recent && answer.sensors.length > 0 && !hasRecent(answer.sensors);
      if (lacksRecent) support.markMissing(RECENT_FEATURE);
      withRecent.value = recent && !lacksRecent;
      statuses.value = answer;
      loadedAt.value = appNow();
      error.value = null;
    } catch (caught) {
      if (toValue(plantUuid) !== plant) return;
      if (isRouteMissing(caught)) {
        support.markMissing(SENSOR_STATUSES_ROUTE);
        error.value = null;
        return;
      }
      if (caught instanceof PlantDeskError && caught.status === 404) {
        plantMissing.value = true;
        error.value = null;
        return;
      }
      error.value = failureMessage(caught);
      throw caught;
    }
  }

  const enabled = computed(
    () =>
      toValue(options.enabled ?? true) &&
      Boolean(toValue(plantUuid)) &&
      served.value &&
      !plantMissing.value,
  );
  const live = useLiveRefresh(load, {
    intervalMs: () =>
      asksRecent.value
        ? RECENT_REFRESH_MS
        : toValue(options.intervalMs ?? DEFAULT_STATUS_REFRESH_MS),
    enabled,
  });

  // The live readings are wanted now: read them at once rather than at the next tick.
  watch(asksRecent, async (asks) => {
    if (!asks || !enabled.value) return;
    await live.refreshNow();
    if (asksRecent.value && !withRecent.value && enabled.value) await live.refreshNow();
  });

  watch(
    () => toValue(plantUuid),
    () => {
      statuses.value = null;
      withRecent.value = false;
      loadedAt.value = null;
      error.value = null;
      plantMissing.value = false;
      if (enabled.value) void live.refreshNow();
    },
  );

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
    loadedAt,
    available,
    /** The statuses carry the sensors' `recent` readings (asked with `recent`, served). */
    withRecent,
    /** The reads ask for `recent` (wanted and not known to be missing). */
    asksRecent,
    error,
    loading: live.refreshing,
    paused: live.paused,
    intervalMs: live.intervalMs,
    /** Loads now (after a save, or "Check again"); never rejects. */
    refresh: () => live.refreshNow(),
  };
}
