import { computed, ref, toValue, type MaybeRefOrGetter } from 'vue';
import type { Plant } from '../../../api/schemas/plants.ts';
import type { Device, Sensor } from '../../../api/schemas/relationships.ts';
import { runWiringChecks, type WiringCheckResult } from '../../../server/domain/wiring/index.ts';
import type { LiveReadings } from './liveReadings.ts';
import { buildWiringInput } from './wiringInput.ts';
import { useMutationCall } from './useApiQuery.ts';

/**
 * The wiring and plausibility checks of the verification step, run again on every live load
 * (their 15-minute window ends at the load), and recording a sensor as inverted — the fix for
 * a meter mounted backwards — through the sensor update route.
 *
 *   const wiring = useWiringChecks(plant, () => snapshot, () => live.readings.value);
 *   wiring.checks.value?.find((check) => check.id === 'gridSign')?.status // → 'fail'
 */

export interface WiringSubjects {
  devices: readonly Device[];
  sensors: readonly Sensor[];
}

/** The server has the `signInverted` extension: its sensors carry the field. */
export function servesSignInverted(sensors: readonly Sensor[]): boolean {
  return sensors.some((sensor) => typeof sensor.signInverted === 'boolean');
}

export const isSignInverted = (sensor: Sensor): boolean => sensor.signInverted ?? false;

export function useWiringChecks(
  plant: MaybeRefOrGetter<Pick<Plant, 'plantUuid' | 'location' | 'pv'> | null>,
  subjects: MaybeRefOrGetter<WiringSubjects | null>,
  live: MaybeRefOrGetter<LiveReadings | null>,
) {
  const mutate = useMutationCall();
  /** The sensor whose setting is being saved. */
  const recording = ref<string | null>(null);
  const recordError = ref<string | null>(null);

  const checks = computed<WiringCheckResult[] | null>(() => {
    const target = toValue(plant);
    const known = toValue(subjects);
    const readings = toValue(live);
    if (!target || !known || !readings) return null;
    return runWiringChecks(
      buildWiringInput(target, known.devices, known.sensors, readings, readings.loadedAt),
    );
  });

  const canRecordInversion = computed(() => servesSignInverted(toValue(subjects)?.sensors ?? []));

  /** Sets the sensor's `signInverted`; answers the saved sensor, or null when it failed. */
  async function setSignInverted(sensorUuid: string, value: boolean): Promise<Sensor | null> {
    const target = toValue(plant);
    if (!target) return null;
    recording.value = sensorUuid;
    recordError.value = null;
    try {
      return await mutate('updateSensor', {
        params: { plantUuid: target.plantUuid, sensorUuid },
        body: { signInverted: value },
      });
    } catch (caught) {
      recordError.value = caught instanceof Error ? caught.message : String(caught);
      return null;
    } finally {
      recording.value = null;
    }
  }

  /** Toggles the setting of a sensor a sign check found reversed. */
  function toggleSignInverted(sensorUuid: string): Promise<Sensor | null> {
    const sensor = toValue(subjects)?.sensors.find((entry) => entry.sensorUuid === sensorUuid);
    return setSignInverted(sensorUuid, !(sensor && isSignInverted(sensor)));
  }

  return {
    checks,
    canRecordInversion,
    recording,
    recordError,
    setSignInverted,
    toggleSignInverted,
  };
}
