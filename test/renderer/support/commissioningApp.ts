import { afterEach, beforeEach, vi } from 'vitest';
import type { Device, Sensor } from '../../../api/schemas/relationships.ts';
import CommissioningView from '../../../renderer/src/views/CommissioningView.vue';
import { fakeCanvas } from '../charts/support.ts';
import { PLANT, PLANT_UUID, SIMULATOR } from '../commissioning/fixtures.ts';
import { mountWithApp, page, type MountWithAppOptions, type RouteAnswers } from './mountWithApp.ts';

/**
 * The commissioning wizard of one plant (test/renderer/commissioning/fixtures.ts) on the fake
 * bridge: the routes every step reads, the wizard opened at a step, and the clock pinned at
 * `now` with the sparklines' canvas faked, as the wizard's tests and the live readings' share.
 */

/** What the wizard reads of the plant, its sensors and devices, and the vendors. */
export function wizardRoutes(
  roof: { sensors: Sensor[]; devices: Device[] },
  extra: RouteAnswers = {},
): RouteAnswers {
  return {
    getPlant: PLANT,
    listPlants: page([PLANT]),
    listSensors: page(roof.sensors),
    listDevices: page(roof.devices),
    listVendors: page([SIMULATOR]),
    listPlantVendors: page([]),
    ...extra,
  };
}

/** The server testing each stored connection again, every one answering. */
export const connectionsPass = (testedAt: string) => () => ({
  ok: true,
  message: 'Simulated sensor',
  address: null,
  testedAt,
});

/** The wizard at `/commission/<plant>/<step>` (no step: the address without one). */
export function mountWizard(
  step: string | undefined,
  routes: RouteAnswers,
  options: Omit<MountWithAppOptions, 'props' | 'route' | 'routes'> = {},
) {
  return mountWithApp(CommissioningView, {
    props: { plantUuid: PLANT_UUID, step },
    route: step ? `/commission/${PLANT_UUID}/${step}` : `/commission/${PLANT_UUID}`,
    routes,
    ...options,
  });
}

/** Each test at `now` (Date only), the live readings' sparklines drawn on a fake canvas. */
export function pinWizardClock(now: number): void {
  beforeEach(() => {
    vi.useFakeTimers({ now, toFake: ['Date'] });
    fakeCanvas();
  });

  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    document.body.innerHTML = '';
  });
}
