import { computed, ref, shallowRef, toValue, watch, type MaybeRefOrGetter } from 'vue';
import {
  directionTest,
  type DirectionChange,
  type DirectionTestResult,
} from '../../../server/domain/wiring/index.ts';
import { appNow } from '../clock.ts';
import {
  currentProductionW,
  directionMeters,
  directionTestInput,
  mergePoints,
  settled,
  type ChangeKind,
  type WatchedMeter,
} from './directionTestFlow.ts';
import type { LiveReadings } from './liveReadings.ts';

import { translate } from '../i18n.ts';
/**
 * The guided direction test as steps: choose the known change, make it (the meters' readings
 * before are those up to that moment), wait for the meters to respond (live readings), and
 * read directionTest()'s conclusion. The test concludes by itself once every meter has
 * settled; "Conclude now" does it at once.
 *
 *   const test = useDirectionTest(() => live.readings.value);
 *   test.start(); test.changeMade(); // … test.results.value → [{ outcome: 'reversed', … }]
 */

export type DirectionPhase = 'choose' | 'change' | 'watching' | 'done';

export function useDirectionTest(live: MaybeRefOrGetter<LiveReadings | null>) {
  const phase = ref<DirectionPhase>('choose');
  const kind = ref<ChangeKind>('loadSwitchedOn');
  /** The load's power, W (for a load switched on). */
  const loadPowerW = ref<number | null>(2000);
  const changedAt = ref<number | null>(null);
  const watched = shallowRef<WatchedMeter[]>([]);
  const results = shallowRef<DirectionTestResult[] | null>(null);
  /** The PV's output when the user said they switched it off (W). */
  const pvPowerW = ref<number | null>(null);

  const meters = computed(() => directionMeters(toValue(live)?.sensors ?? []));
  const productionNowW = computed(() => {
    const readings = toValue(live);
    return readings ? currentProductionW(readings.sensors, readings.loadedAt) : null;
  });

  /** Why the test cannot start, or null. */
  const blocked = computed<string | null>(() => {
    if (meters.value.length === 0) {
      return translate('commissioning.direction.blocked.noMeters');
    }
    if (kind.value === 'loadSwitchedOn' && !(loadPowerW.value && loadPowerW.value > 0)) {
      return translate('commissioning.direction.blocked.loadPower');
    }
    if (kind.value === 'pvSwitchedOff' && !(productionNowW.value && productionNowW.value > 0)) {
      return translate('commissioning.direction.blocked.noPv');
    }
    return null;
  });

  const change = computed<DirectionChange>(() =>
    kind.value === 'loadSwitchedOn'
      ? { kind: 'loadSwitchedOn', powerW: loadPowerW.value ?? 0 }
      : { kind: 'pvSwitchedOff', powerW: pvPowerW.value ?? productionNowW.value ?? 0 },
  );

  function keep(readings: LiveReadings | null): void {
    if (!readings) return;
    const fresh = new Map(
      directionMeters(readings.sensors).map((sensor) => [sensor.sensorUuid, sensor]),
    );
    watched.value = watched.value.map((meter) => {
      const sensor = fresh.get(meter.sensor.sensorUuid);
      return sensor ? { sensor, points: mergePoints(meter.points, sensor.recent ?? []) } : meter;
    });
  }

  function start(): void {
    if (blocked.value) return;
    watched.value = meters.value.map((sensor) => ({ sensor, points: [...(sensor.recent ?? [])] }));
    results.value = null;
    changedAt.value = null;
    phase.value = 'change';
  }

  /** The user made the change: what the meters read until now is "before". */
  function changeMade(): void {
    if (phase.value !== 'change') return;
    keep(toValue(live));
    if (kind.value === 'pvSwitchedOff') pvPowerW.value = productionNowW.value;
    changedAt.value = appNow();
    phase.value = 'watching';
  }

  function conclude(): void {
    if (changedAt.value === null) return;
    results.value = directionTest(directionTestInput(change.value, watched.value, changedAt.value));
    phase.value = 'done';
  }

  function reset(): void {
    phase.value = 'choose';
    watched.value = [];
    results.value = null;
    changedAt.value = null;
    pvPowerW.value = null;
  }

  watch(
    () => toValue(live),
    (readings) => {
      if (phase.value !== 'change' && phase.value !== 'watching') return;
      keep(readings);
      if (phase.value === 'watching' && settled(watched.value, changedAt.value!)) conclude();
    },
  );

  return {
    phase,
    kind,
    loadPowerW,
    meters,
    productionNowW,
    blocked,
    watched,
    changedAt,
    results,
    start,
    changeMade,
    conclude,
    reset,
  };
}
