// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { ALL_READ_PERMISSIONS } from '../../../api/permissions.ts';
import { i18n } from '../../../renderer/src/i18n.ts';
import PlantSensorsView from '../../../renderer/src/views/PlantSensorsView.vue';
import { apiError } from '../support/mountWithApp.ts';
import {
  device,
  ENERGY,
  pageOf,
  PLANT,
  POWER,
  POWER_METER,
  SIMULATOR,
  sensor,
} from './fixtures.ts';
import { mountPlantPage, pageButton as button } from './plantPage.ts';
import { choose } from './formHelpers.ts';
import { sensorStatus, statusesOf } from './statusFixtures.ts';
import { fakeCanvas } from '../charts/support.ts';

beforeEach(() => {
  // The live readings draw sparklines.
  fakeCanvas();
});
afterEach(() => {
  vi.restoreAllMocks();
});

type Input = { params: Record<string, string>; query?: Record<string, unknown>; body: any };

const INVERTER = device(1, { name: 'PV inverter' });
const LINKED = sensor(1, {
  name: 'PV production',
  deviceUuid: INVERTER.deviceUuid,
  flow: 'PRODUCTION',
  dataTypesCollectUuids: [POWER.dataTypesCollectUuid, ENERGY.dataTypesCollectUuid],
  connection: { vendorUuid: SIMULATOR.vendorUuid, address: 'sim://new/pv' },
  relationships: { device: INVERTER, sensorType: POWER_METER, dataTypesCollects: [POWER, ENERGY] },
});
const FREE = sensor(2, {
  name: 'Grid meter',
  flow: 'GRID',
  relationships: { device: null, sensorType: POWER_METER, dataTypesCollects: [POWER] },
});

function mountView(extra: Record<string, unknown> = {}, permissions?: string[]) {
  return mountPlantPage(
    PlantSensorsView,
    'sensors',
    {
      listSensors: pageOf([LINKED, FREE]),
      listDevices: pageOf([INVERTER]),
      updateSensor: (input: Input) => ({ ...FREE, ...input.body }),
      deleteSensor: undefined,
      ...extra,
    },
    permissions,
  );
}

describe('PlantSensorsView', () => {
  test('lists with relationships and the API parameters, showing units, flow, connection, device', async () => {
    const app = await mountView();
    expect(app.callsTo('listSensors')[0]!.input).toEqual({
      params: { plantUuid: PLANT },
      query: { page: 0, size: 20, sort: 'name,asc', includeRelationships: true },
    });
    const rows = app.wrapper.findAll('tbody tr').map((row) => row.text());
    expect(rows[0]).toContain('PV production');
    expect(rows[0]).toContain('Power meter');
    expect(rows[0]).toContain('Power (W)');
    expect(rows[0]).toContain('Energy (kWh)');
    expect(rows[0]).toContain('Production');
    expect(rows[0]).toContain('sim://new/pv');
    expect(rows[0]).toContain('PlantDesk simulator');
    expect(rows[0]).toContain('PV inverter');
    expect(rows[1]).toContain('Plant level');
    expect(rows[1]).toContain('None (readings endpoint)');
  });

  test('unlinks a sensor with deviceUuid null', async () => {
    const app = await mountView();
    expect(() => button(app, 'Unlink Grid meter')).toThrow();
    await button(app, 'Unlink PV production').trigger('click');
    await app.settle();
    expect(app.callsTo('updateSensor')[0]!.input).toEqual({
      params: { plantUuid: PLANT, sensorUuid: LINKED.sensorUuid },
      body: { deviceUuid: null },
    });
    expect(app.callsTo('listSensors').length).toBeGreaterThan(1);
  });

  test('links a sensor to the device chosen in the dialog', async () => {
    const app = await mountView();
    await button(app, 'Link Grid meter to a device').trigger('click');
    await app.settle();
    expect(app.wrapper.text()).toContain('Link Grid meter to a device');
    await choose(app.wrapper, 'Device', INVERTER.deviceUuid);
    await app.wrapper.find('form.link-form').trigger('submit');
    await app.settle();
    expect(app.callsTo('updateSensor')[0]!.input).toEqual({
      params: { plantUuid: PLANT, sensorUuid: FREE.sensorUuid },
      body: { deviceUuid: INVERTER.deviceUuid },
    });
  });

  test('without devices, the link dialog says where to create one, in one sentence with its link', async () => {
    for (const [locale, sentence] of [
      ['en', 'This plant has no devices yet. Create one on the Devices page first.'],
      [
        'it',
        'Questo impianto non ha ancora dispositivi. Creane prima uno nella pagina Dispositivi.',
      ],
    ] as const) {
      i18n.global.locale.value = locale;
      const app = await mountView({ listDevices: pageOf([]) });
      const linkName =
        locale === 'en' ? 'Link Grid meter to a device' : 'Collega Grid meter a un dispositivo';
      await button(app, linkName).trigger('click');
      await app.settle();
      const note = app.wrapper.find('form.link-form p');
      expect(note.text().replace(/\s+/g, ' ')).toBe(sentence);
      expect(note.find('a').attributes('href')).toBe(`/plants/${PLANT}/devices`);
      app.wrapper.unmount();
    }
  });

  test('deletes after confirmation and shows a refusal', async () => {
    const app = await mountView({
      deleteSensor: apiError(403, 'Permission SENSORS DELETE required'),
    });
    await button(app, 'Delete Grid meter').trigger('click');
    await app.settle();
    expect(app.wrapper.text()).toContain('Delete the sensor Grid meter?');
    await app.wrapper.find('form.confirm-delete').trigger('submit');
    await app.settle();
    expect(app.callsTo('deleteSensor')[0]!.input!.params).toEqual({
      plantUuid: PLANT,
      sensorUuid: FREE.sensorUuid,
    });
    expect(app.wrapper.find('[role="alert"]').text()).toContain(
      'Permission SENSORS DELETE required',
    );
  });

  test('a reader sees every action disabled, naming the permission', async () => {
    const app = await mountView({}, [...ALL_READ_PERMISSIONS]);
    for (const name of ['Create sensor']) {
      const create = app.wrapper.findAll('button').find((b) => b.text() === name);
      expect(create!.attributes('disabled')).toBeDefined();
    }
    expect(button(app, 'Delete Grid meter').attributes('disabled')).toBeDefined();
    expect(button(app, 'Edit Grid meter').attributes('disabled')).toBeDefined();
    expect(button(app, 'Link Grid meter to a device').attributes('disabled')).toBeDefined();
    expect(button(app, 'Unlink PV production').attributes('disabled')).toBeDefined();
    expect(app.wrapper.text()).toContain('Requires the permission SENSORS DELETE');
    expect(app.wrapper.text()).toContain('Requires the permission SENSORS CREATE');
  });

  test('says why the list is empty, and shows a failure with Retry', async () => {
    const empty = await mountView({ listSensors: pageOf([]) });
    expect(empty.wrapper.text()).toContain('This plant has no sensors yet');
    const failing = await mountView({ listSensors: apiError(404, 'Plant not found') });
    expect(failing.wrapper.find('[role="alert"]').text()).toContain('Plant not found');
    expect(failing.wrapper.text()).toContain('Retry');
  });
});

describe('PlantSensorsView: the Data column (sensor freshness)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const headers = (app: Awaited<ReturnType<typeof mountView>>) =>
    app.wrapper.findAll('thead th').map((th) => th.text().trim());

  test('shows each sensor’s badge, value with unit and age, exact time and coverage', async () => {
    vi.useFakeTimers({ now: Date.parse('2026-06-21T10:00:00Z'), toFake: ['Date'] });
    const app = await mountView({
      listSensorStatuses: statusesOf([
        sensorStatus(1, { name: 'PV production' }),
        sensorStatus(2, {
          name: 'Grid meter',
          state: 'SILENT',
          lastReadingAt: '2026-06-21T07:00:00Z',
          lastValue: 850,
          coverage24h: 0.5,
        }),
      ]),
    });
    await app.settle();
    expect(app.callsTo('listSensorStatuses')[0]!.input).toEqual({ params: { plantUuid: PLANT } });
    expect(headers(app)).toContain('Data');

    const rows = app.wrapper.findAll('tbody tr');
    const pv = rows[0]!.find('[role="group"][aria-label="Data of PV production"]');
    expect(pv.find('.p-tag').text()).toBe('Reporting');
    expect(pv.text()).toContain('12.3 kW · 2 min ago');
    expect(pv.text()).toContain('98% of 24 h');
    expect(pv.find('time').attributes('title')).toBe('2026-06-21 11:58:00 UTC+02:00 (Europe/Rome)');
    expect(pv.find('time').attributes('datetime')).toBe('2026-06-21T09:58:00Z');

    const grid = rows[1]!.find('[role="group"][aria-label="Data of Grid meter"]');
    expect(grid.find('.p-tag').text()).toBe('Silent');
    expect(grid.text()).toContain('850 W · 3 h ago');
    expect(grid.text()).toContain('50% of 24 h');
  });

  test('a reporting sensor stuck on one value says since when; not reporting is another thing', async () => {
    vi.useFakeTimers({ now: Date.parse('2026-06-21T10:00:00Z'), toFake: ['Date'] });
    const app = await mountView({
      listSensorStatuses: statusesOf([
        sensorStatus(1, { name: 'PV production', lastChangedAt: '2026-06-21T06:15:00Z' }),
        sensorStatus(2, {
          name: 'Grid meter',
          state: 'NEVER',
          lastReadingAt: null,
          lastValue: null,
        }),
      ]),
    });
    await app.settle();
    const rows = app.wrapper.findAll('tbody tr');
    expect(rows[0]!.find('[data-freshness-same-value]').text()).toBe('same value since 08:15');
    expect(rows[0]!.find('[data-freshness] .p-tag').text()).toBe('Reporting');
    expect(rows[1]!.find('[data-freshness] .p-tag').text()).toBe('Never reported');
    expect(rows[1]!.text()).toContain('No reading yet');
    expect(rows[1]!.find('[data-freshness-same-value]').exists()).toBe(false);
  });

  test('without the extension (404) there is no Data column and no error', async () => {
    // The fake host answers listSensorStatuses 404, like a server started with --no-extensions.
    const app = await mountView();
    await app.settle();
    expect(app.callsTo('listSensorStatuses')).toHaveLength(1);
    expect(headers(app)).not.toContain('Data');
    expect(app.wrapper.find('[role="alert"]').exists()).toBe(false);
    expect(app.wrapper.find('[data-freshness]').exists()).toBe(false);
    expect(app.wrapper.findAll('tbody tr')).toHaveLength(2);
  });

  test('another failure keeps the column, saying the data could not be read', async () => {
    const app = await mountView({ listSensorStatuses: apiError(500, 'Database unavailable') });
    await app.settle();
    expect(headers(app)).toContain('Data');
    expect(app.wrapper.findAll('tbody tr')[0]!.text()).toContain(
      'Not known (the data could not be read)',
    );
  });
});

describe('PlantSensorsView in German', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  test('columns, flows, freshness with decimal commas, and the form’s own checks', async () => {
    vi.useFakeTimers({ now: Date.parse('2026-06-21T10:00:00Z'), toFake: ['Date'] });
    i18n.global.locale.value = 'de';
    const app = await mountView({
      listSensorStatuses: statusesOf([sensorStatus(1, { name: 'PV production' })]),
    });
    await app.settle();
    const headers = app.wrapper.findAll('thead th').map((th) => th.text().trim());
    expect(headers).toEqual(expect.arrayContaining(['Datentypen', 'Fluss', 'Daten', 'Gerät']));
    const rows = app.wrapper.findAll('tbody tr');
    expect(rows[0]!.text()).toContain('Erzeugung');
    expect(rows[1]!.text()).toContain('Anlagenebene');
    const pv = rows[0]!.find('[role="group"][aria-label="Daten von PV production"]');
    expect(pv.find('.p-tag').text()).toBe('Meldet');
    expect(pv.text()).toContain('12,3 kW · vor 2 min');
    expect(button(app, 'PV production lösen').exists()).toBe(true);
    expect(button(app, 'Grid meter mit einem Gerät verknüpfen').exists()).toBe(true);

    await app.wrapper
      .findAll('button')
      .find((b) => b.text() === 'Sensor anlegen')!
      .trigger('click');
    await app.settle();
    await app.wrapper.find('form.form-shell').trigger('submit');
    await app.settle();
    expect(app.wrapper.text()).toContain('Wählen Sie einen Sensortyp.');
    expect(app.wrapper.text()).toContain('Wählen Sie mindestens einen Datentyp.');
  });
});
