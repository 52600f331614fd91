// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { defineComponent, h, nextTick, ref } from 'vue';
import { mount } from '@vue/test-utils';
import PrimeVue from 'primevue/config';
import type { PlantVendor } from '../../../api/schemas/vendors.ts';
import SelectField from '../../../renderer/src/components/SelectField.vue';
import CommissioningVerification from '../../../renderer/src/components/commissioning/CommissioningVerification.vue';
import PlantVendorsPanel from '../../../renderer/src/components/vendors/PlantVendorsPanel.vue';
import CommissioningView from '../../../renderer/src/views/CommissioningView.vue';
import PlantSensorsView from '../../../renderer/src/views/PlantSensorsView.vue';
import { mountWithApp, page } from '../support/mountWithApp.ts';
import { button } from '../support/queries.ts';
import {
  CATALOG_ROUTES,
  pageOf,
  PLANT as SENSORS_PLANT,
  POWER_METER,
  sensor,
} from '../sensors/fixtures.ts';
import { PLANT, PLANT_UUID } from './fixtures.ts';
import { fakeCanvas } from '../charts/support.ts';

/**
 * What the keyboard needs from the wizard's components (test/e2e/web/commissioningKeyboard.spec.ts
 * drives the whole wizard): a select's clear button and Escape, and where the focus goes when
 * the control that had it goes away or is disabled.
 */

beforeEach(() => {
  // The live readings draw sparklines.
  fakeCanvas();
});

afterEach(() => {
  vi.restoreAllMocks();
  document.body.innerHTML = '';
});

const VENDOR_OPTIONS = [
  { value: 'a', label: 'Fronius Solar API' },
  { value: 'b', label: 'SMA Modbus' },
];

function mountSelect(initial: string | null) {
  const value = ref<string | null>(initial);
  const wrapper = mount(
    defineComponent({
      setup: () => () =>
        h(SelectField<string | null>, {
          id: 'vendor',
          label: 'Vendor',
          modelValue: value.value,
          'onUpdate:modelValue': (next: string | null) => (value.value = next),
          options: VENDOR_OPTIONS,
          optionLabel: 'label',
          optionValue: 'value',
          placeholder: 'No vendor',
          showClear: true,
        }),
    }),
    {
      attachTo: document.body,
      global: { plugins: [[PrimeVue, { theme: 'none' }]], stubs: { teleport: true } },
    },
  );
  return { wrapper, value };
}

describe('SelectField from the keyboard', () => {
  test('the clear icon is a named button; from the keyboard it gives the focus to the select', async () => {
    const { wrapper, value } = mountSelect('a');
    const clear = button(wrapper as never, 'Clear Vendor');
    expect(clear.attributes('type')).toBe('button');
    clear.element.focus();
    // Enter or Space on a button: a click without a pointer (detail 0).
    clear.element.dispatchEvent(new MouseEvent('click', { bubbles: true, detail: 0 }));
    await nextTick();
    expect(value.value).toBeNull();
    expect(document.activeElement).toBe(document.getElementById('vendor'));
    expect(document.activeElement?.getAttribute('role')).toBe('combobox');
    expect(
      wrapper.findAll('button').some((b) => b.attributes('aria-label') === 'Clear Vendor'),
    ).toBe(false);
  });

  test('a mouse click clears without moving the focus to the select', async () => {
    const { wrapper, value } = mountSelect('b');
    button(wrapper as never, 'Clear Vendor').element.dispatchEvent(
      new MouseEvent('click', { bubbles: true, detail: 1 }),
    );
    await nextTick();
    expect(value.value).toBeNull();
    expect(document.activeElement).not.toBe(document.getElementById('vendor'));
  });

  test('Escape on the closed select reaches the document (a dialog closes); on the open one it closes the list', async () => {
    const { wrapper } = mountSelect('a');
    const escapes = vi.fn();
    document.addEventListener('keydown', (event) => {
      if (event.code === 'Escape') escapes();
    });
    const combobox = wrapper.find('[role="combobox"]');
    (combobox.element as HTMLElement).focus();

    await combobox.trigger('keydown', { key: 'ArrowDown', code: 'ArrowDown' });
    expect(combobox.attributes('aria-expanded')).toBe('true');
    await combobox.trigger('keydown', { key: 'Escape', code: 'Escape' });
    await vi.waitFor(() => expect(combobox.attributes('aria-expanded')).toBe('false'));
    expect(escapes).not.toHaveBeenCalled();

    await combobox.trigger('keydown', { key: 'Escape', code: 'Escape' });
    expect(escapes).toHaveBeenCalledTimes(1);
  });
});

describe('CommissioningVerification', () => {
  function mountVerification() {
    return mount(CommissioningVerification, {
      props: { snapshot: null, verifying: false, error: null },
      attachTo: document.body,
      global: { plugins: [[PrimeVue, { theme: 'none' }]] },
    });
  }

  test('"Check again" gets the focus back once the checks that disabled it are done', async () => {
    const wrapper = mountVerification();
    const checkAgain = () => button(wrapper as never, 'Check again');
    checkAgain().element.focus();
    await checkAgain().trigger('click');
    expect(wrapper.emitted('check')).toHaveLength(1);
    await wrapper.setProps({ verifying: true });
    expect(checkAgain().attributes('disabled')).toBeDefined();
    // A browser takes the focus from a disabled button (happy-dom keeps it: moved away here).
    const gone = document.createElement('button');
    document.body.append(gone);
    gone.focus();
    gone.remove();
    expect(document.activeElement).toBe(document.body);
    await wrapper.setProps({ verifying: false });
    await nextTick();
    expect(document.activeElement).toBe(checkAgain().element);
  });

  test('does not take the focus back from where the user went meanwhile', async () => {
    const wrapper = mountVerification();
    const elsewhere = document.createElement('button');
    document.body.append(elsewhere);
    const checkAgain = () => button(wrapper as never, 'Check again');
    checkAgain().element.focus();
    await checkAgain().trigger('click');
    await wrapper.setProps({ verifying: true });
    elsewhere.focus();
    await wrapper.setProps({ verifying: false });
    await nextTick();
    expect(document.activeElement).toBe(elsewhere);
  });
});

describe('where the focus goes when its control goes away', () => {
  test('deleting a row (its Delete button gone) puts the focus on the list’s heading', async () => {
    const spare = sensor(3, {
      name: 'Spare',
      relationships: { device: null, sensorType: POWER_METER, dataTypesCollects: [] },
    });
    let sensors = [spare];
    // The list read again after the delete answers when the test says so (a real server's delay).
    let answerReread: (() => void) | undefined;
    const app = await mountWithApp(PlantSensorsView, {
      props: { plantUuid: SENSORS_PLANT },
      route: `/plants/${SENSORS_PLANT}/sensors`,
      attachTo: document.body,
      routes: {
        ...CATALOG_ROUTES,
        listSensors: () =>
          sensors.length > 0
            ? pageOf(sensors)
            : new Promise((resolve) => (answerReread = () => resolve(pageOf(sensors)))),
        listDevices: pageOf([]),
        deleteSensor: () => {
          sensors = [];
          return undefined;
        },
      } as never,
    });
    await app.settle();
    const remove = button(app.wrapper as never, 'Delete Spare');
    await remove.trigger('click');
    await app.settle();
    await app.wrapper.find('form.confirm-delete').trigger('submit');
    await app.settle();
    // The closed confirmation gives the focus back to the Delete button, still there until the
    // list read again answers.
    (remove.element as HTMLElement).focus();
    answerReread!();
    await app.settle();
    await app.settle();
    expect(app.callsTo('deleteSensor')).toHaveLength(1);
    expect(app.wrapper.text()).not.toContain('Spare');
    expect(document.activeElement?.tagName).toBe('H2');
    expect(document.activeElement?.textContent?.trim()).toBe('Sensors');
  });

  test('configuring a vendor from the Available tab puts the focus on the Configured tab', async () => {
    const shelly: PlantVendor = {
      vendorUuid: '00000000-0000-4000-8000-000000000005',
      code: 'SHELLY',
      name: 'Shelly',
      kind: 'DEVICE_BRAND',
      configSchema: { fields: [] },
      configured: false,
      settings: null,
      secretFieldsSet: [],
      configuredAt: null,
    };
    let configured: PlantVendor[] = [];
    const app = await mountWithApp(PlantVendorsPanel, {
      props: { plantUuid: PLANT_UUID },
      attachTo: document.body,
      routes: {
        listPlantVendors: (input: { query: { mode: string } }) =>
          page(input.query.mode === 'config' ? configured : configured.length ? [] : [shelly]),
        configurePlantVendor: () => {
          configured = [{ ...shelly, configured: true, settings: {} }];
          return configured[0];
        },
      } as never,
    });
    await app.settle();
    await app.wrapper.findAll('[role="tab"]')[1]!.trigger('click');
    await app.settle();
    await button(app.wrapper as never, 'Configure Shelly').trigger('click');
    await app.settle();
    await app.wrapper.find('form.vendor-config-form').trigger('submit');
    await app.settle();
    await app.settle();
    expect(app.callsTo('configurePlantVendor')).toHaveLength(1);
    const focused = document.activeElement;
    expect(focused?.getAttribute('role')).toBe('tab');
    expect(focused?.getAttribute('aria-selected')).toBe('true');
    expect(focused?.textContent).toContain('Configured');
  });

  test('resuming a plant’s commissioning at step 1 puts the focus on the step’s heading', async () => {
    const app = await mountWithApp(CommissioningView, {
      props: {},
      route: '/commission',
      attachTo: document.body,
      routes: { getPlant: PLANT, listPlants: page([PLANT]) },
    });
    await app.settle();
    const continueButton = button(app.wrapper as never, 'Continue commissioning');
    continueButton.element.focus();
    // "Continue commissioning" opens the plant's wizard at the same step, without the button.
    await app.wrapper.setProps({ plantUuid: PLANT_UUID, step: 'plant' });
    await app.settle();
    await nextTick();
    const heading = app.wrapper.find('h2.step-title');
    expect(heading.text()).toBe('Step 1 of 6: Plant');
    expect(document.activeElement).toBe(heading.element);
  });
});
