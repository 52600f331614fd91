// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import SensorForm from '../../../renderer/src/components/sensors/SensorForm.vue';
import { apiError, mountWithApp } from '../support/mountWithApp.ts';
import {
  CATALOG_ROUTES,
  device,
  PLANT,
  POWER,
  POWER_METER,
  SIMULATOR,
  SMA,
  sensor,
  TEMPERATURE,
  THERMOMETER,
} from './fixtures.ts';
import { choose, fieldError, inputLabelled, labelFor } from './formHelpers.ts';

type Input = { params: Record<string, string>; query?: Record<string, unknown>; body: any };

/** createSensor answers the body back as a sensor of the plant. */
const echoSensor = (input: Input) =>
  sensor(1, { ...input.body, connection: input.body.connection ?? null });

async function mountForm(
  routes: Record<string, unknown> = {},
  props: Record<string, unknown> = {},
) {
  return mountWithApp(SensorForm, {
    props: { plantUuid: PLANT, devices: [device(1, { name: 'PV inverter' })], ...props },
    routes: {
      ...CATALOG_ROUTES,
      createSensor: echoSensor,
      getSensor: (input: Input) => sensor(1, { sensorUuid: input.params.sensorUuid }),
      ...routes,
    },
  });
}

const checkboxLabels = (app: Awaited<ReturnType<typeof mountForm>>) =>
  app.wrapper
    .find('fieldset')
    .findAll('label')
    .map((label) => label.text());

describe('SensorForm', () => {
  test('offers only the data types the chosen sensor type allows, each with its unit', async () => {
    const app = await mountForm();
    expect(checkboxLabels(app)).toEqual([]);
    expect(app.wrapper.text()).toContain('Choose a sensor type first');

    await choose(app.wrapper, 'Sensor type', POWER_METER.sensorTypeUuid);
    expect(checkboxLabels(app)).toEqual(['Energy (kWh)', 'Power (W)']);
    // Every allowed data type is ticked to start with, as the server's default would be.
    expect(inputLabelled(app.wrapper, 'Power (W)').element.checked).toBe(true);
    expect(inputLabelled(app.wrapper, 'Energy (kWh)').element.checked).toBe(true);

    await choose(app.wrapper, 'Sensor type', THERMOMETER.sensorTypeUuid);
    expect(checkboxLabels(app)).toEqual(['Temperature (°C)']);
    expect(app.wrapper.text()).not.toContain('Power (W)');
  });

  test('sends the chosen data types, flow and a sim:// connection with the simulator vendor', async () => {
    const app = await mountForm();
    await inputLabelled(app.wrapper, 'Name').setValue('PV production');
    await choose(app.wrapper, 'Sensor type', POWER_METER.sensorTypeUuid);
    await inputLabelled(app.wrapper, 'Energy (kWh)').setValue(false);
    await choose(app.wrapper, 'Flow', 'PRODUCTION');
    await inputLabelled(app.wrapper, 'Connection address').setValue('sim://new-plant/pv');
    await choose(app.wrapper, 'Device', device(1).deviceUuid);
    await app.wrapper.find('form').trigger('submit');
    await app.settle();

    const [call] = app.callsTo('createSensor');
    expect(call!.input!.params).toEqual({ plantUuid: PLANT });
    expect(call!.input!.query?.ignoreConnectionsTest).toBeUndefined();
    expect(call!.input!.body).toEqual({
      name: 'PV production',
      sensorTypeUuid: POWER_METER.sensorTypeUuid,
      dataTypesCollectUuids: [POWER.dataTypesCollectUuid],
      flow: 'PRODUCTION',
      samplingIntervalSeconds: 60,
      connection: { vendorUuid: SIMULATOR.vendorUuid, address: 'sim://new-plant/pv' },
      deviceUuid: device(1).deviceUuid,
    });
    expect(app.wrapper.text()).toContain('Connection test passed.');
    const saved = app.wrapper.emitted('saved');
    expect(saved).toHaveLength(1);
    expect(saved![0]![1]).toBe('passed');
    // The saved sensor is read back with its relationships for the caller.
    expect(app.callsTo('getSensor')[0]!.input!.query).toEqual({ includeRelationships: true });
  });

  test('"Skip connection test" sends ignoreConnectionsTest=true as a query parameter', async () => {
    const app = await mountForm();
    await choose(app.wrapper, 'Sensor type', POWER_METER.sensorTypeUuid);
    await choose(app.wrapper, 'Connection vendor', SMA.vendorUuid);
    await inputLabelled(app.wrapper, 'Connection address').setValue('modbus://10.0.0.9:502');
    await inputLabelled(app.wrapper, 'Skip connection test').setValue(true);
    await app.wrapper.find('form').trigger('submit');
    await app.settle();

    const [call] = app.callsTo('createSensor');
    expect(call!.input!.query).toEqual({ ignoreConnectionsTest: true });
    expect((call!.input!.body as Input['body']).connection).toEqual({
      vendorUuid: SMA.vendorUuid,
      address: 'modbus://10.0.0.9:502',
    });
    expect(app.wrapper.text()).toContain('Connection test skipped.');
    expect(app.wrapper.emitted('saved')![0]![1]).toBe('skipped');
  });

  test("a failed connection test (422) shows the server's message on the connection", async () => {
    const message =
      "Connection test of 'modbus://10.0.0.9:502' failed: Cannot connect to 10.0.0.9:502 (ECONNREFUSED) (add ignoreConnectionsTest=true to save it anyway)";
    const app = await mountForm({ createSensor: apiError(422, message) });
    await choose(app.wrapper, 'Sensor type', POWER_METER.sensorTypeUuid);
    await choose(app.wrapper, 'Connection vendor', SMA.vendorUuid);
    await inputLabelled(app.wrapper, 'Connection address').setValue('modbus://10.0.0.9:502');
    await app.wrapper.find('form').trigger('submit');
    await app.settle();

    expect(fieldError(app.wrapper, 'connection')).toBe(message);
    const address = inputLabelled(app.wrapper, 'Connection address');
    expect(address.attributes('aria-invalid')).toBe('true');
    expect(address.attributes('aria-describedby')).toContain(
      app.wrapper.find('[id$="-connection-error"]').attributes('id'),
    );
    expect(app.wrapper.text()).toContain('Connection test failed.');
    expect(app.wrapper.emitted('saved')).toBeUndefined();
  });

  test('checks the form on the client before calling the server', async () => {
    const app = await mountForm();
    await inputLabelled(app.wrapper, 'Connection address').setValue('modbus://10.0.0.9:502');
    await app.wrapper.find('form').trigger('submit');
    await app.settle();
    expect(fieldError(app.wrapper, 'sensorTypeUuid')).toBe('Choose a sensor type.');
    expect(fieldError(app.wrapper, 'dataTypesCollectUuids')).toBe('Choose at least one data type.');
    expect(fieldError(app.wrapper, 'connection')).toContain('Choose the vendor');

    await choose(app.wrapper, 'Sensor type', POWER_METER.sensorTypeUuid);
    await inputLabelled(app.wrapper, 'Power (W)').setValue(false);
    await inputLabelled(app.wrapper, 'Energy (kWh)').setValue(false);
    await app.wrapper.find('form').trigger('submit');
    await app.settle();
    expect(fieldError(app.wrapper, 'dataTypesCollectUuids')).toBe('Choose at least one data type.');
    // The contract's own rule (SensorConnection: an address of at most 500 characters).
    await inputLabelled(app.wrapper, 'Energy (kWh)').setValue(true);
    await choose(app.wrapper, 'Connection vendor', SMA.vendorUuid);
    await inputLabelled(app.wrapper, 'Connection address').setValue('x'.repeat(501));
    await app.wrapper.find('form').trigger('submit');
    await app.settle();
    expect(fieldError(app.wrapper, 'connection')).toBeTruthy();
    expect(app.callsTo('createSensor')).toHaveLength(0);
  });

  test('edits a sensor: its values are filled in and the update sends them', async () => {
    const existing = sensor(5, {
      name: 'Outdoor temperature',
      sensorTypeUuid: THERMOMETER.sensorTypeUuid,
      dataTypesCollectUuids: [TEMPERATURE.dataTypesCollectUuid],
      flow: 'AMBIENT',
      samplingIntervalSeconds: 300,
      connection: { vendorUuid: SIMULATOR.vendorUuid, address: 'sim://home/outdoor' },
    });
    const app = await mountForm(
      { updateSensor: (input: Input) => ({ ...existing, ...input.body }) },
      { sensor: existing },
    );
    expect(inputLabelled(app.wrapper, 'Name').element.value).toBe('Outdoor temperature');
    expect(checkboxLabels(app)).toEqual(['Temperature (°C)']);
    expect(inputLabelled(app.wrapper, 'Temperature (°C)').element.checked).toBe(true);
    await inputLabelled(app.wrapper, 'Name').setValue('Garden temperature');
    await app.wrapper.find('form').trigger('submit');
    await app.settle();

    const [call] = app.callsTo('updateSensor');
    expect(call!.input!.params).toEqual({ plantUuid: PLANT, sensorUuid: existing.sensorUuid });
    expect(call!.input!.body).toMatchObject({
      name: 'Garden temperature',
      flow: 'AMBIENT',
      samplingIntervalSeconds: 300,
      deviceUuid: null,
    });
    // The connection did not change: the server does not test it again.
    expect(app.wrapper.emitted('saved')![0]![1]).toBe('unchanged');
  });

  test('reads the devices itself when none are given, and shows catalog failures', async () => {
    const app = await mountWithApp(SensorForm, {
      props: { plantUuid: PLANT },
      routes: {
        ...CATALOG_ROUTES,
        listSensorTypes: apiError(403, 'Permission SENSOR_TYPES READ required'),
        listDevices: {
          content: [device(2)],
          page: { number: 0, size: 200, totalElements: 1, totalPages: 1 },
        },
      },
    });
    expect(app.callsTo('listDevices')[0]!.input!.params).toEqual({ plantUuid: PLANT });
    expect(app.wrapper.find('[role="alert"]').text()).toContain(
      'Permission SENSOR_TYPES READ required',
    );
    expect(labelFor(app.wrapper, 'Device').exists()).toBe(true);
  });
});
