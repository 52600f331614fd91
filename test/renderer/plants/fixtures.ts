import type { DOMWrapper, VueWrapper } from '@vue/test-utils';
import type { Plant } from '../../../renderer/src/stores/usePlantStore.ts';
import PlantOverviewView from '../../../renderer/src/views/PlantOverviewView.vue';
import { mountWithApp, type RouteAnswers } from '../support/mountWithApp.ts';

export const PLANT_UUID = '0b6a3b0e-5f0e-4f43-9f67-2e8f3f6c1d7a';

export function plant(overrides: Partial<Plant> = {}): Plant {
  return {
    plantUuid: PLANT_UUID,
    name: 'Demo Home',
    externalIds: ['DEMO-HOME-001'],
    location: { latitude: 46.4983, longitude: 11.3548, timezone: 'Europe/Rome', altitudeM: 262 },
    pv: { peakPowerKw: 8.4, tiltDeg: 30, azimuthDeg: 180, lossesPercent: 14 },
    metadata: { address: 'Via dei Campi 12, Bolzano', householdSize: 4 },
    createdAt: '2025-01-10T08:00:00.000Z',
    updatedAt: '2025-01-11T09:30:00.000Z',
    ...overrides,
  };
}

/** The control a visible <label> names (by its text, start of the label). */
export function labelled(wrapper: VueWrapper<any>, label: string): DOMWrapper<HTMLInputElement> {
  const found = wrapper
    .findAll('label')
    .find((candidate) => candidate.text().trim().startsWith(label));
  if (!found) throw new Error(`no label “${label}”`);
  const id = found.attributes('for');
  if (!id) throw new Error(`label “${label}” names no control`);
  return wrapper.find<HTMLInputElement>(`[id="${id}"]`);
}

/** The error shown under the control a label names. */
export function errorOf(wrapper: VueWrapper<any>, label: string): string {
  const control = labelled(wrapper, label);
  const id = control.attributes('id');
  const error = wrapper.find(`[id="${id}-error"]`);
  return error.exists() ? error.text() : '';
}

/** A button by its accessible name (aria-label, else its text). */
export function button(wrapper: VueWrapper<any>, name: string): DOMWrapper<HTMLButtonElement> {
  const found = wrapper
    .findAll<HTMLButtonElement>('button')
    .find((candidate) => (candidate.attributes('aria-label') ?? candidate.text().trim()) === name);
  if (!found) throw new Error(`no button “${name}”`);
  return found;
}

/** The plant's overview page over the given answers (the plant, its device and sensor lists). */
export function mountOverview(routes: RouteAnswers) {
  return mountWithApp(PlantOverviewView, {
    props: { plantUuid: PLANT_UUID },
    route: `/plants/${PLANT_UUID}`,
    routes,
  });
}
