// @vitest-environment happy-dom
import { describe, expect, test, vi } from 'vitest';
import { focusManager } from '@tanstack/vue-query';
import Select from 'primevue/select';
import { ALL_READ_PERMISSIONS, ORGANIZATION_PERMISSIONS } from '../../../api/permissions.ts';
import type { DataTypesCollect, DeviceType, SensorType } from '../../../api/schemas/catalogs.ts';
import type { LoadSignature } from '../../../api/schemas/relationships.ts';
import DataTypesCollectsView from '../../../renderer/src/views/DataTypesCollectsView.vue';
import DeviceTypesView from '../../../renderer/src/views/DeviceTypesView.vue';
import LoadSignaturesView from '../../../renderer/src/views/LoadSignaturesView.vue';
import SensorTypesView from '../../../renderer/src/views/SensorTypesView.vue';
import { flatProfile, normalize } from '../../../renderer/src/composables/loadProfile.ts';
import { i18n } from '../../../renderer/src/i18n.ts';
import { apiError, mountWithApp, page } from '../support/mountWithApp.ts';
import { button, control, fieldErrors } from '../support/queries.ts';

vi.mock('vue-chartjs', async () => {
  const { defineComponent, h } = await import('vue');
  return { Bar: defineComponent({ render: () => h('div', { class: 'chart-stand-in' }) }) };
});

const AT = '2026-01-01T00:00:00Z';
const POWER: DataTypesCollect = {
  dataTypesCollectUuid: 'aaaaaaaa-0000-4000-8000-000000000001',
  code: 'POWER',
  name: 'Power',
  unit: 'W',
};
const ENERGY: DataTypesCollect = {
  dataTypesCollectUuid: 'aaaaaaaa-0000-4000-8000-000000000002',
  code: 'ENERGY',
  name: 'Energy',
  unit: 'kWh',
};
const METER: SensorType = {
  sensorTypeUuid: 'bbbbbbbb-0000-4000-8000-000000000001',
  code: 'POWER_METER',
  name: 'Power meter',
  description: 'Measures power',
  dataTypesCollectUuids: [POWER.dataTypesCollectUuid, ENERGY.dataTypesCollectUuid],
  createdAt: AT,
  updatedAt: AT,
};
const HEAT_PUMP: DeviceType = {
  deviceTypeUuid: 'cccccccc-0000-4000-8000-000000000001',
  code: 'HEAT_PUMP',
  name: 'Heat pump',
  category: 'CONSUMER',
  description: null,
  createdAt: AT,
  updatedAt: AT,
};
const EVENING: LoadSignature = {
  loadSignatureUuid: 'dddddddd-0000-4000-8000-000000000001',
  code: 'EVENING',
  name: 'Evening load',
  description: null,
  deviceTypeUuid: HEAT_PUMP.deviceTypeUuid,
  hourlyProfile: normalize([...new Array(18).fill(1), 5, 5, 5, 1, 1, 1]),
  typicalDailyKwh: 9.5,
  createdAt: AT,
  updatedAt: AT,
  relationships: { deviceType: HEAT_PUMP, devices: [] },
};

type Input = { params?: Record<string, string>; query?: Record<string, unknown>; body?: any };

describe('SensorTypesView', () => {
  const routes = () => ({
    listSensorTypes: page([METER]),
    listDataTypesCollects: page([ENERGY, POWER]),
    createSensorType: (input: Input) => ({ ...METER, ...input.body, sensorTypeUuid: 'new' }),
    updateSensorType: (input: Input) => ({ ...METER, ...input.body }),
  });

  test('lists server-side by code, with the allowed data types and their units', async () => {
    const app = await mountWithApp(SensorTypesView, { routes: routes() });
    expect(app.callsTo('listSensorTypes')[0]!.input!.query).toMatchObject({
      page: 0,
      size: 20,
      sort: 'code,asc',
    });
    const row = app.wrapper.find('tbody tr');
    expect(row.text()).toContain('POWER_METER');
    expect(row.text()).toContain('Power (W), Energy (kWh)');
  });

  test('creates with the contract fields; a missing code is named before sending', async () => {
    const app = await mountWithApp(SensorTypesView, { routes: routes() });
    await button(app.wrapper, 'New sensor type').trigger('click');
    await app.settle();
    await app.wrapper.find('form').trigger('submit');
    await app.settle();
    expect(fieldErrors(app.wrapper)).toEqual(['Code is required']);
    expect(app.callsTo('createSensorType')).toHaveLength(0);

    await control(app.wrapper, 'Code').setValue(' PYRANOMETER ');
    await app.settle();
    // The message goes once the field is changed.
    expect(fieldErrors(app.wrapper)).toEqual([]);
    await control(app.wrapper, 'Description').setValue('Irradiance');
    app.wrapper
      .findAllComponents({ name: 'MultiSelect' })[0]!
      .vm.$emit('update:modelValue', [POWER.dataTypesCollectUuid]);
    await app.settle();
    await app.wrapper.find('form').trigger('submit');
    await app.settle();
    expect(app.callsTo('createSensorType')[0]!.input!.body).toEqual({
      code: 'PYRANOMETER',
      description: 'Irradiance',
      dataTypesCollectUuids: [POWER.dataTypesCollectUuid],
    });
    expect(app.callsTo('listSensorTypes')).toHaveLength(2);
  });

  test('a 409 on the code lands on the Code field', async () => {
    const app = await mountWithApp(SensorTypesView, {
      routes: {
        ...routes(),
        updateSensorType: apiError(409, "A sensor type with code 'POWER_METER' already exists"),
      },
    });
    await button(app.wrapper, 'Edit POWER_METER').trigger('click');
    await app.settle();
    expect(control(app.wrapper, 'Code').element.value).toBe('POWER_METER');
    await app.wrapper.find('form').trigger('submit');
    await app.settle();
    expect(app.callsTo('updateSensorType')[0]!.input!.params).toEqual({
      sensorTypeUuid: METER.sensorTypeUuid,
    });
    expect(app.wrapper.find('#sensor-type-code-error').text()).toBe(
      "A sensor type with code 'POWER_METER' already exists",
    );
  });

  test('a manager (every READ) sees create, edit and delete disabled', async () => {
    const app = await mountWithApp(SensorTypesView, {
      routes: routes(),
      user: { permissions: [...ALL_READ_PERMISSIONS] },
    });
    for (const name of ['New sensor type', 'Edit POWER_METER', 'Delete POWER_METER']) {
      expect(button(app.wrapper, name).attributes('disabled')).toBeDefined();
    }
    expect(app.wrapper.text()).toContain('Requires the permission SENSOR_TYPES CREATE');
  });
});

describe('DeviceTypesView', () => {
  test('creates with a category and shows a refused delete (still referenced) above the table', async () => {
    const app = await mountWithApp(DeviceTypesView, {
      routes: {
        listDeviceTypes: page([HEAT_PUMP]),
        createDeviceType: (input: Input) => ({ ...HEAT_PUMP, ...input.body }),
        deleteDeviceType: apiError(409, 'Device type HEAT_PUMP is used by 2 devices'),
      },
    });
    expect(app.wrapper.find('tbody tr').text()).toContain('Consumer');

    await button(app.wrapper, 'New device type').trigger('click');
    await app.settle();
    await control(app.wrapper, 'Code').setValue('WALLBOX');
    await control(app.wrapper, 'Name').setValue('Wallbox');
    app.wrapper.findAllComponents(Select)[0]!.vm.$emit('update:modelValue', 'STORAGE');
    await app.settle();
    await app.wrapper.find('form').trigger('submit');
    await app.settle();
    expect(app.callsTo('createDeviceType')[0]!.input!.body).toEqual({
      code: 'WALLBOX',
      name: 'Wallbox',
      category: 'STORAGE',
      description: null,
    });

    await button(app.wrapper, 'Delete HEAT_PUMP').trigger('click');
    await app.settle();
    expect(app.wrapper.text()).toContain('Delete the device type HEAT_PUMP?');
    await app.wrapper.findAll('form').at(-1)!.trigger('submit');
    await app.settle();
    expect(app.callsTo('deleteDeviceType')[0]!.input!.params).toEqual({
      deviceTypeUuid: HEAT_PUMP.deviceTypeUuid,
    });
    expect(app.wrapper.find('[role="alert"]').text()).toContain(
      'Device type HEAT_PUMP is used by 2 devices',
    );
  });
});

describe('shared and own catalog entries', () => {
  const SHARED_PUMP: DeviceType = { ...HEAT_PUMP, shared: true };
  const OWN_SAUNA: DeviceType = {
    ...HEAT_PUMP,
    deviceTypeUuid: 'cccccccc-0000-4000-8000-000000000002',
    code: 'SAUNA',
    shared: false,
  };
  const routes = {
    listDeviceTypes: page([SHARED_PUMP, OWN_SAUNA]),
    createDeviceType: (input: Input) => ({ ...OWN_SAUNA, ...input.body }),
  };

  test("an organization's administrator edits its own entries, not the shared ones, and is told why", async () => {
    const app = await mountWithApp(DeviceTypesView, {
      routes,
      user: { permissions: [...ORGANIZATION_PERMISSIONS] },
    });
    const [shared, own] = app.wrapper.findAll('tbody tr');
    expect(shared!.text()).toContain('Shared');
    expect(own!.text()).toContain('Your organization');
    expect(button(app.wrapper, 'Edit HEAT_PUMP').attributes('disabled')).toBeDefined();
    expect(button(app.wrapper, 'Delete HEAT_PUMP').attributes('disabled')).toBeDefined();
    expect(shared!.text()).toContain('Requires the permission REFERENCE_CATALOGS UPDATE');
    expect(shared!.text()).toContain('Requires the permission REFERENCE_CATALOGS DELETE');
    expect(button(app.wrapper, 'Edit SAUNA').attributes('disabled')).toBeUndefined();

    // Nor is a shared entry offered when creating.
    await button(app.wrapper, 'New device type').trigger('click');
    await app.settle();
    expect(app.wrapper.text()).not.toContain('Shared with every organization');
  });

  test('the platform operator edits shared entries and may create one', async () => {
    const app = await mountWithApp(DeviceTypesView, { routes });
    expect(button(app.wrapper, 'Edit HEAT_PUMP').attributes('disabled')).toBeUndefined();
    await button(app.wrapper, 'New device type').trigger('click');
    await app.settle();
    await control(app.wrapper, 'Code').setValue('WALLBOX');
    await control(app.wrapper, 'Shared with every organization').setValue(true);
    await app.settle();
    await app.wrapper.find('form').trigger('submit');
    await app.settle();
    expect(app.callsTo('createDeviceType')[0]!.input!.body).toMatchObject({
      code: 'WALLBOX',
      shared: true,
    });
  });

  test('a server with only the specification says nothing of scopes', async () => {
    const app = await mountWithApp(DeviceTypesView, {
      routes: { listDeviceTypes: page([HEAT_PUMP]) },
    });
    expect(app.wrapper.find('thead').text()).not.toContain('Scope');
    expect(button(app.wrapper, 'Edit HEAT_PUMP').attributes('disabled')).toBeUndefined();
  });
});

describe('LoadSignaturesView', () => {
  const routes = () => ({
    listLoadSignatures: page([EVENING]),
    listDeviceTypes: page([HEAT_PUMP]),
    createLoadSignature: (input: Input) => ({ ...EVENING, ...input.body }),
    updateLoadSignature: (input: Input) => ({ ...EVENING, ...input.body }),
  });

  test('lists with relationships: device type, typical day and peak hour', async () => {
    const app = await mountWithApp(LoadSignaturesView, { routes: routes() });
    expect(app.callsTo('listLoadSignatures')[0]!.input!.query).toMatchObject({
      includeRelationships: true,
      sort: 'code,asc',
    });
    const row = app.wrapper.find('tbody tr').text();
    expect(row).toContain('Heat pump');
    expect(row).toContain('9.5 kWh');
    expect(row).toContain('18:00');
  });

  test('creates with a profile edited hour by hour that still sums to 1', async () => {
    const app = await mountWithApp(LoadSignaturesView, { routes: routes() });
    await button(app.wrapper, 'New load signature').trigger('click');
    await app.settle();
    await control(app.wrapper, 'Code').setValue('NIGHT');
    const hour = control(app.wrapper, '03:00');
    hour.element.value = '40';
    await hour.trigger('input');
    await hour.trigger('blur');
    await app.settle();
    expect(app.wrapper.find('output').text()).toBe('Total: 100.00 %');
    await app.wrapper.find('form').trigger('submit');
    await app.settle();

    const body = app.callsTo('createLoadSignature')[0]!.input!.body;
    expect(body.code).toBe('NIGHT');
    expect(body.deviceTypeUuid).toBeNull();
    expect(body.hourlyProfile).toHaveLength(24);
    expect(body.hourlyProfile[3]).toBe(0.4);
    const sum = (body.hourlyProfile as number[]).reduce((a, b) => a + b, 0);
    expect(Math.abs(sum - 1)).toBeLessThan(1e-9);
    expect(Math.min(...(body.hourlyProfile as number[]))).toBeGreaterThan(0);
  });

  test('editing keeps the stored profile unless an hour is changed', async () => {
    const app = await mountWithApp(LoadSignaturesView, { routes: routes() });
    await button(app.wrapper, 'Edit EVENING').trigger('click');
    await app.settle();
    await control(app.wrapper, 'Name').setValue('Evening peak');
    await app.wrapper.find('form').trigger('submit');
    await app.settle();
    const body = app.callsTo('updateLoadSignature')[0]!.input!.body;
    expect(body.name).toBe('Evening peak');
    expect(body.hourlyProfile).toEqual(EVENING.hourlyProfile);
    expect(body.deviceTypeUuid).toBe(HEAT_PUMP.deviceTypeUuid);
    expect(body.typicalDailyKwh).toBe(9.5);
  });

  test('the list read again while the edit dialog is open leaves what is being typed', async () => {
    const app = await mountWithApp(LoadSignaturesView, { routes: routes() });
    await button(app.wrapper, 'Edit EVENING').trigger('click');
    await app.settle();
    await control(app.wrapper, 'Name').setValue('Evening peak');
    const hour = control(app.wrapper, '03:00');
    hour.element.value = '10';
    await hour.trigger('input');

    // Someone else changed the signature; back to the window, the table reads it again.
    app.routes.listLoadSignatures = page([{ ...EVENING, name: 'Changed elsewhere' }]);
    focusManager.setFocused(false);
    focusManager.setFocused(true);
    await app.settle();
    focusManager.setFocused(undefined);
    expect(app.callsTo('listLoadSignatures')).toHaveLength(2);
    expect(app.wrapper.find('tbody tr').text()).toContain('Changed elsewhere');

    expect(control(app.wrapper, 'Name').element.value).toBe('Evening peak');
    expect(control(app.wrapper, '03:00').element.value).toBe('10');
    await control(app.wrapper, '03:00').trigger('blur');
    await app.settle();
    expect(control(app.wrapper, '03:00').element.value).toBe('10');
    await app.wrapper.find('form').trigger('submit');
    await app.settle();
    const body = app.callsTo('updateLoadSignature')[0]!.input!.body;
    expect(body.name).toBe('Evening peak');
    expect(body.hourlyProfile[3]).toBe(0.1);
  });

  test('a new signature starts flat', async () => {
    const app = await mountWithApp(LoadSignaturesView, { routes: routes() });
    await button(app.wrapper, 'New load signature').trigger('click');
    await app.settle();
    expect(control(app.wrapper, '00:00').element.value).toBe('4.17');
    expect(flatProfile()).toHaveLength(24);
  });
});

describe('DataTypesCollectsView', () => {
  test('is read-only: a searchable, sortable list with units and no edit action', async () => {
    const app = await mountWithApp(DataTypesCollectsView, {
      routes: { listDataTypesCollects: page([ENERGY, POWER]) },
    });
    expect(app.callsTo('listDataTypesCollects')[0]!.input!.query).toMatchObject({
      sort: 'name,asc',
    });
    const rows = app.wrapper.findAll('tbody tr').map((row) => row.text());
    expect(rows[0]).toContain('Energy');
    expect(rows[0]).toContain('kWh');
    expect(app.wrapper.findAll('tbody button')).toHaveLength(0);
    expect(app.wrapper.text()).not.toMatch(/New data type|Delete|Edit/);
    expect(app.wrapper.find('input[type="search"]').attributes('aria-label')).toBe(
      'Search data types',
    );
  });
});

describe('catalogs in German and Italian', () => {
  test('a load signature: headings, the new-entry form, its own check and decimal commas', async () => {
    i18n.global.locale.value = 'de';
    const app = await mountWithApp(LoadSignaturesView, {
      routes: { listLoadSignatures: page([EVENING]), listDeviceTypes: page([HEAT_PUMP]) },
    });
    expect(app.wrapper.find('h2').text()).toBe('Lastprofile');
    const row = app.wrapper.find('tbody tr').text();
    expect(row).toContain('9,5 kWh');
    expect(row).toMatch(/18:00 \(\d+,\d %\)/);
    await button(app.wrapper, 'Neues Lastprofil').trigger('click');
    await app.settle();
    expect(app.wrapper.find('output').text()).toBe('Summe: 100,00 %');
    expect(app.wrapper.find('legend').text()).toBe('Stundenprofil');
    await app.wrapper.find('form').trigger('submit');
    await app.settle();
    expect(fieldErrors(app.wrapper)).toEqual(['Der Code ist erforderlich']);
  });

  test('in Italian: a category, and what the search box searches', async () => {
    i18n.global.locale.value = 'it';
    const app = await mountWithApp(DeviceTypesView, {
      routes: { listDeviceTypes: page([HEAT_PUMP]) },
    });
    expect(app.wrapper.find('tbody tr').text()).toContain('Consumatore');
    expect(app.wrapper.find('input[type="search"]').attributes('aria-label')).toBe(
      'Cerca tipi di dispositivo',
    );
  });
});
