import { DateTime } from 'luxon';
import { computed, ref, shallowRef } from 'vue';
import type { Plant } from '../../../api/schemas/plants.ts';
import type { Device, Sensor } from '../../../api/schemas/relationships.ts';
import { useMutation } from '@tanstack/vue-query';
import { useBridge } from '../bridge.ts';
import {
  latestReadings,
  measuredFlows,
  READINGS_WINDOW_MINUTES,
  verifyCommissioning,
  type ConnectionTestResult,
  type EnergyFlow,
  type FlowReadings,
  type Verification,
  type VerificationInput,
} from './commissioningChecks.ts';
import { fetchPlantDevices, fetchPlantSensors } from './useCatalogOptions.ts';
import { errorMessage } from './useFormErrors.ts';
import { appDate } from '../clock.ts';
import { currentFormatters, translate } from '../i18n.ts';

/**
 * The commissioning wizard's steps and the work of its last two: verifying a plant (step 5)
 * and saving its report (step 6). The route `/commission/:plantUuid/:step` is the wizard's
 * state, so a reload or a later visit resumes where it was.
 */

/** In order; each is named on screen by `commissioning.steps.<value>` in the chosen language. */
export const COMMISSIONING_STEPS = [
  { value: 'plant' },
  { value: 'sensors' },
  { value: 'devices' },
  { value: 'vendors' },
  { value: 'verification' },
  { value: 'report' },
] as const;
export type CommissioningStep = (typeof COMMISSIONING_STEPS)[number]['value'];

const STEP_VALUES: readonly string[] = COMMISSIONING_STEPS.map((step) => step.value);

/** The step a route parameter names; the plant step without a plant or for an unknown name. */
export function stepFromParam(step: unknown, hasPlant: boolean): CommissioningStep {
  if (!hasPlant || typeof step !== 'string' || !STEP_VALUES.includes(step)) return 'plant';
  return step as CommissioningStep;
}

/** 1-based, as the stepper shows it. */
export function stepNumber(step: CommissioningStep): number {
  return STEP_VALUES.indexOf(step) + 1;
}

export function neighbourSteps(step: CommissioningStep): {
  previous: (typeof COMMISSIONING_STEPS)[number] | undefined;
  next: (typeof COMMISSIONING_STEPS)[number] | undefined;
} {
  const index = STEP_VALUES.indexOf(step);
  return { previous: COMMISSIONING_STEPS[index - 1], next: COMMISSIONING_STEPS[index + 1] };
}

/**
 * "Commissioning Roof 2026-11-18": the PDF's suggested file name, without the characters file
 * systems refuse (the host's contract refuses them too) and within its 200 characters.
 */
export function reportFileName(plantName: string, at: Date, timeZone?: string): string {
  const date = DateTime.fromJSDate(at, { zone: timeZone ?? 'local' });
  const day = (date.isValid ? date : DateTime.fromJSDate(at)).toFormat('yyyy-MM-dd');
  const plant = [...plantName]
    .map((char) => (char < ' ' ? ' ' : char))
    .join('')
    .replace(/[/\\:*?"<>|]+/g, '-')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 150);
  return `Commissioning ${plant || 'plant'} ${day}`;
}

/**
 * What the checks were run on: the report shows the same devices and sensors. `verification`
 * is put into words when read, in the language chosen then, so that its text follows a change
 * of language while the snapshot stays the same object (a new one means a new verification).
 */
export interface CommissioningSnapshot {
  devices: Device[];
  sensors: Sensor[];
  readonly verification: Verification;
}

function snapshotOf(devices: Device[], sensors: Sensor[], input: VerificationInput) {
  const verification = computed(() =>
    verifyCommissioning(input, { t: translate, f: currentFormatters() }),
  );
  return {
    devices,
    sensors,
    get verification() {
      return verification.value;
    },
  } satisfies CommissioningSnapshot;
}

/** The sensor-history routes' local date-time format. */
const LOCAL_MINUTE = "yyyy-MM-dd'T'HH:mm";
/** Re-tests at once; each may wait for a TCP timeout (3 s). */
const PARALLEL_TESTS = 4;

const HISTORY_ROUTES = {
  production: 'historyProduction',
  consumption: 'historyConsumption',
} as const;

export function useCommissioning() {
  const bridge = useBridge();
  const snapshot = shallowRef<CommissioningSnapshot | null>(null);
  /** Why the checks could not run at all (the devices or sensors could not be read). */
  const error = ref<string | null>(null);

  /** The server tests the stored connection again (testSensorConnection), changing nothing. */
  async function retestConnection(
    plantUuid: string,
    sensor: Sensor,
  ): Promise<ConnectionTestResult> {
    if (!sensor.connection)
      return { status: 'error', message: translate('checks.connections.noConnectionError') };
    try {
      const result = await bridge.call('testSensorConnection', {
        params: { plantUuid, sensorUuid: sensor.sensorUuid },
      });
      return result.ok ? { status: 'passed' } : { status: 'failed', message: result.message };
    } catch (caught) {
      return {
        status: 'error',
        message: errorMessage(caught, translate('checks.connections.couldNotRun')),
      };
    }
  }

  async function retestConnections(
    plantUuid: string,
    sensors: readonly Sensor[],
  ): Promise<Map<string, ConnectionTestResult>> {
    const results = new Map<string, ConnectionTestResult>();
    const queue = sensors.filter((sensor) => sensor.connection);
    const worker = async () => {
      for (let sensor = queue.shift(); sensor; sensor = queue.shift()) {
        results.set(sensor.sensorUuid, await retestConnection(plantUuid, sensor));
      }
    };
    await Promise.all(Array.from({ length: PARALLEL_TESTS }, worker));
    return results;
  }

  /**
   * The latest readings of a flow: its power history as raw samples over the last minutes, in
   * the plant's local time (the routes' dates are local), up to the end of the current minute.
   */
  async function readFlow(plant: Plant, flow: EnergyFlow, now: Date): Promise<FlowReadings> {
    const local = DateTime.fromJSDate(now, { zone: plant.location.timezone }).startOf('minute');
    try {
      const series = await bridge.call(HISTORY_ROUTES[flow], {
        params: { plantUuid: plant.plantUuid },
        query: {
          startDate: local.minus({ minutes: READINGS_WINDOW_MINUTES }).toFormat(LOCAL_MINUTE),
          endDate: local.plus({ minutes: 1 }).toFormat(LOCAL_MINUTE),
          granularity: 'seconds',
        },
      });
      return latestReadings(series.points);
    } catch (caught) {
      return { error: errorMessage(caught, translate('checks.readings.couldNotRead')) };
    }
  }

  /**
   * A passed verification completes the commissioning: the host schedules the acceptance
   * re-check 24 h later (the first pass only). The report shows it; a host that cannot record
   * it leaves the report's section saying so, the wizard goes on.
   */
  function recordCommissioned(plant: Plant): void {
    bridge
      .invoke('acceptance.commissioned', { plantUuid: plant.plantUuid, plantName: plant.name })
      .catch(() => {});
  }

  /** Reads the plant's devices and sensors, re-tests, reads back, and checks. */
  async function check(plant: Plant): Promise<CommissioningSnapshot> {
    const [devices, sensors] = await Promise.all([
      fetchPlantDevices(plant.plantUuid),
      fetchPlantSensors(plant.plantUuid),
    ]);
    const now = appDate();
    const flows = measuredFlows(sensors);
    const [connectionTests, ...flowReadings] = await Promise.all([
      retestConnections(plant.plantUuid, sensors),
      ...flows.map((flow) => readFlow(plant, flow, now)),
    ]);
    const readings: Partial<Record<EnergyFlow, FlowReadings>> = {};
    flows.forEach((flow, index) => (readings[flow] = flowReadings[index]!));
    return snapshotOf(devices, sensors, {
      plant,
      devices,
      sensors,
      connectionTests,
      readings,
      now: appDate(),
    });
  }

  // A mutation (it re-tests the connections): only the latest verification's outcome is shown,
  // a slower earlier one never overwrites it (vue-query calls back for the latest call only).
  const verification = useMutation({ mutationFn: check });

  /** Step 5: verifies the plant; the snapshot shown before stays while it runs. */
  async function verify(plant: Plant): Promise<void> {
    error.value = null;
    await verification
      .mutateAsync(plant, {
        onSuccess(checked) {
          snapshot.value = checked;
          if (checked.verification.passed) recordCommissioned(plant);
        },
        onError(caught) {
          error.value = errorMessage(caught, translate('commissioning.verification.notRead'));
        },
      })
      .catch(() => {});
  }

  /**
   * Step 6: the report as PDF. In the desktop app the host prints the page (only the report
   * prints) and asks where to save it; in the browser, the browser's print dialog offers
   * "Save as PDF". Answers what to tell the user.
   */
  async function saveReport(plant: Plant, at: Date): Promise<{ saved: boolean; message: string }> {
    const info = await bridge.invoke('app.info');
    if (info.host === 'web') {
      window.print();
      return {
        saved: true,
        message: translate('commissioning.report.printDialog'),
      };
    }
    const result = await bridge.invoke('report.savePdf', {
      suggestedName: reportFileName(plant.name, at, plant.location.timezone),
    });
    return result.saved
      ? {
          saved: true,
          message: result.path
            ? translate('commissioning.report.savedTo', { path: result.path })
            : translate('commissioning.report.saved'),
        }
      : { saved: false, message: translate('commissioning.report.cancelled') };
  }

  return {
    snapshot,
    verifying: verification.isPending,
    error,
    verify,
    saveReport,
    retestConnection,
  };
}
