// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import { focusManager } from '@tanstack/vue-query';
import { ALL_PERMISSIONS } from '../../../api/permissions.ts';
import DeviceForm from '../../../renderer/src/components/devices/DeviceForm.vue';
import { apiError, mountWithApp } from '../support/mountWithApp.ts';
import {
  CATALOG_ROUTES,
  device,
  HEAT_PUMP_TYPE,
  HEAT_PUMP_WINTER,
  PLANT,
  pageOf,
  SMA,
  sensor,
} from '../sensors/fixtures.ts';
import { choose, fieldError, inputLabelled } from '../sensors/formHelpers.ts';

type Input = { params: Record<string, string>; query?: Record<string, unknown>; body: any };

const CREATED = device(9, { name: 'Heat pump', deviceTypeUuid: HEAT_PUMP_TYPE.deviceTypeUuid });
const OTHER = device(8, { name: 'Battery' });

/** Three sensors: free, linked to the device under edit (device 1), linked to another device. */
const SENSORS = [
  sensor(1, { name: 'Heat pump power' }),
  sensor(2, { name: 'Old meter', deviceUuid: device(1).deviceUuid }),
  sensor(3, {
    name: 'Battery power',
    deviceUuid: OTHER.deviceUuid,
    relationships: undefined,
  }),
];

function routes(extra: Record<string, unknown> = {}) {
  return {
    ...CATALOG_ROUTES,
    createDevice: (input: Input) => ({ ...CREATED, ...input.body }),
    updateDevice: (input: Input) => ({ ...device(1), ...input.body }),
    updateSensor: (input: Input) => sensor(1, { ...input.body }),
    getDevice: (input: Input) => device(1, { deviceUuid: input.params.deviceUuid }),
    ...extra,
  };
}

const linkCalls = (app: Awaited<ReturnType<typeof mountWithApp>>) =>
  app.callsTo('updateSensor').map((call) => ({
    sensorUuid: call.input!.params!.sensorUuid,
    body: call.input!.body,
  }));

describe('DeviceForm', () => {
  test('creates a device from the contract fields, then links the ticked sensors', async () => {
    const app = await mountWithApp(DeviceForm, {
      props: { plantUuid: PLANT, sensors: SENSORS },
      routes: routes(),
    });
    await choose(app.wrapper, 'Device type', HEAT_PUMP_TYPE.deviceTypeUuid);
    await choose(app.wrapper, 'Vendor', SMA.vendorUuid);
    await inputLabelled(app.wrapper, 'Model').setValue('Vitocal 250-A');
    await inputLabelled(app.wrapper, 'Serial number').setValue(' HP-123 ');
    await choose(app.wrapper, 'Load signature', HEAT_PUMP_WINTER.loadSignatureUuid);
    await inputLabelled(app.wrapper, 'Heat pump power').setValue(true);
    await app.wrapper.find('form').trigger('submit');
    await app.settle();

    expect(app.callsTo('createDevice')[0]!.input).toMatchObject({
      params: { plantUuid: PLANT },
      body: {
        deviceTypeUuid: HEAT_PUMP_TYPE.deviceTypeUuid,
        vendorUuid: SMA.vendorUuid,
        model: 'Vitocal 250-A',
        serialNumber: 'HP-123',
        ratedPowerW: null,
        loadSignatureUuid: HEAT_PUMP_WINTER.loadSignatureUuid,
      },
    });
    // Only the ticked sensor changes; the one of another device is left alone.
    expect(linkCalls(app)).toEqual([
      { sensorUuid: SENSORS[0]!.sensorUuid, body: { deviceUuid: CREATED.deviceUuid } },
    ]);
    expect(app.callsTo('getDevice')[0]!.input).toEqual({
      params: { plantUuid: PLANT, deviceUuid: CREATED.deviceUuid },
      query: { includeRelationships: true },
    });
    expect(app.wrapper.emitted('saved')).toHaveLength(1);
  });

  test('editing links newly ticked sensors and unlinks unticked ones by updateSensor', async () => {
    const app = await mountWithApp(DeviceForm, {
      props: { plantUuid: PLANT, device: device(1, { name: 'Heat pump' }), sensors: SENSORS },
      routes: routes(),
    });
    expect(inputLabelled(app.wrapper, 'Old meter').element.checked).toBe(true);
    expect(inputLabelled(app.wrapper, 'Heat pump power').element.checked).toBe(false);
    expect(app.wrapper.text()).toContain('ticking moves it here');

    await inputLabelled(app.wrapper, 'Heat pump power').setValue(true);
    await inputLabelled(app.wrapper, 'Old meter').setValue(false);
    await inputLabelled(app.wrapper, 'Battery power').setValue(true);
    await app.wrapper.find('form').trigger('submit');
    await app.settle();

    expect(app.callsTo('updateDevice')[0]!.input!.params).toEqual({
      plantUuid: PLANT,
      deviceUuid: device(1).deviceUuid,
    });
    expect(linkCalls(app)).toEqual([
      { sensorUuid: SENSORS[0]!.sensorUuid, body: { deviceUuid: device(1).deviceUuid } },
      { sensorUuid: SENSORS[1]!.sensorUuid, body: { deviceUuid: null } },
      { sensorUuid: SENSORS[2]!.sensorUuid, body: { deviceUuid: device(1).deviceUuid } },
    ]);
    expect(app.wrapper.emitted('saved')).toHaveLength(1);
  });

  test("a duplicate serial number (409) shows the server's message on the serial number", async () => {
    const message = `serialNumber 'HP-123' is already used by ${OTHER.deviceUuid} in this plant`;
    const app = await mountWithApp(DeviceForm, {
      props: { plantUuid: PLANT, sensors: SENSORS },
      routes: routes({ createDevice: apiError(409, message) }),
    });
    await choose(app.wrapper, 'Device type', HEAT_PUMP_TYPE.deviceTypeUuid);
    await inputLabelled(app.wrapper, 'Serial number').setValue('HP-123');
    await inputLabelled(app.wrapper, 'Heat pump power').setValue(true);
    await app.wrapper.find('form').trigger('submit');
    await app.settle();

    expect(fieldError(app.wrapper, 'serialNumber')).toBe(message);
    expect(app.callsTo('updateSensor')).toHaveLength(0);
    expect(app.wrapper.emitted('saved')).toBeUndefined();
  });

  test('a failed link keeps the form open; saving again updates the created device', async () => {
    let failLink = true;
    const app = await mountWithApp(DeviceForm, {
      props: { plantUuid: PLANT, sensors: SENSORS },
      routes: routes({
        updateSensor: (input: Input) =>
          failLink ? apiError(403, 'Permission SENSORS UPDATE required') : sensor(1, input.body),
      }),
    });
    await choose(app.wrapper, 'Device type', HEAT_PUMP_TYPE.deviceTypeUuid);
    await inputLabelled(app.wrapper, 'Heat pump power').setValue(true);
    await app.wrapper.find('form').trigger('submit');
    await app.settle();
    expect(fieldError(app.wrapper, 'sensors')).toContain('Permission SENSORS UPDATE required');
    expect(app.wrapper.emitted('saved')).toBeUndefined();

    failLink = false;
    await app.wrapper.find('form').trigger('submit');
    await app.settle();
    expect(app.callsTo('createDevice')).toHaveLength(1);
    expect(app.callsTo('updateDevice')[0]!.input!.params!.deviceUuid).toBe(CREATED.deviceUuid);
    expect(app.wrapper.emitted('saved')).toHaveLength(1);
  });

  test('without SENSORS UPDATE the sensors cannot be ticked, and says why', async () => {
    const app = await mountWithApp(DeviceForm, {
      props: { plantUuid: PLANT, sensors: SENSORS },
      routes: routes(),
      user: { permissions: ALL_PERMISSIONS.filter((p) => p !== 'SENSORS UPDATE') },
    });
    expect(inputLabelled(app.wrapper, 'Heat pump power').element.disabled).toBe(true);
    expect(app.wrapper.text()).toContain('Requires the permission SENSORS UPDATE');
  });

  test("the plant's sensors read again while the form is open add to the list, never undo a tick", async () => {
    const app = await mountWithApp(DeviceForm, {
      props: { plantUuid: PLANT, device: device(1, { name: 'Heat pump' }) },
      routes: routes({ listSensors: pageOf(SENSORS) }),
    });
    await inputLabelled(app.wrapper, 'Heat pump power').setValue(true);
    await inputLabelled(app.wrapper, 'Old meter').setValue(false);

    // Another window linked a new sensor; back to this one, the list is read again.
    app.routes.listSensors = pageOf([...SENSORS, sensor(4, { name: 'Wallbox meter' })]);
    focusManager.setFocused(false);
    focusManager.setFocused(true);
    await app.settle();
    focusManager.setFocused(undefined);

    expect(app.callsTo('listSensors')).toHaveLength(2);
    expect(inputLabelled(app.wrapper, 'Wallbox meter').element.checked).toBe(false);
    expect(inputLabelled(app.wrapper, 'Heat pump power').element.checked).toBe(true);
    expect(inputLabelled(app.wrapper, 'Old meter').element.checked).toBe(false);
  });

  test('requires a device type and reads the sensors itself when none are given', async () => {
    const app = await mountWithApp(DeviceForm, {
      props: { plantUuid: PLANT },
      routes: routes({
        listSensors: {
          content: [sensor(4, { name: 'Wallbox meter' })],
          page: { number: 0, size: 200, totalElements: 1, totalPages: 1 },
        },
      }),
    });
    expect(app.callsTo('listSensors')[0]!.input!.query).toMatchObject({
      includeRelationships: true,
    });
    expect(inputLabelled(app.wrapper, 'Wallbox meter').exists()).toBe(true);
    await app.wrapper.find('form').trigger('submit');
    await app.settle();
    expect(fieldError(app.wrapper, 'deviceTypeUuid')).toBe('Choose a device type.');
    expect(app.callsTo('createDevice')).toHaveLength(0);
  });
});
