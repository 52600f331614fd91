// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import { ALL_READ_PERMISSIONS } from '../../../api/permissions.ts';
import { i18n } from '../../../renderer/src/i18n.ts';
import PlantDevicesView from '../../../renderer/src/views/PlantDevicesView.vue';
import {
  device,
  HEAT_PUMP_TYPE,
  HEAT_PUMP_WINTER,
  INVERTER_TYPE,
  pageOf,
  PLANT,
  SMA,
  sensor,
} from '../sensors/fixtures.ts';
import { mountPlantPage, pageButton as button } from '../sensors/plantPage.ts';

const PV = sensor(1, { name: 'PV production', flow: 'PRODUCTION' });
const INVERTER = device(1, {
  name: 'PV inverter',
  vendorUuid: SMA.vendorUuid,
  model: 'Sunny Tripower',
  serialNumber: 'STP-1',
  ratedPowerW: 8000,
  relationships: { deviceType: INVERTER_TYPE, sensors: [PV], loadSignature: null, vendor: SMA },
});
const HEAT_PUMP = device(2, {
  name: 'Heat pump',
  deviceTypeUuid: HEAT_PUMP_TYPE.deviceTypeUuid,
  loadSignatureUuid: HEAT_PUMP_WINTER.loadSignatureUuid,
  relationships: {
    deviceType: HEAT_PUMP_TYPE,
    sensors: [],
    loadSignature: HEAT_PUMP_WINTER,
    vendor: null,
  },
});

function mountView(extra: Record<string, unknown> = {}, permissions?: string[]) {
  return mountPlantPage(
    PlantDevicesView,
    'devices',
    {
      listDevices: pageOf([HEAT_PUMP, INVERTER]),
      listSensors: pageOf([PV]),
      deleteDevice: undefined,
      ...extra,
    },
    permissions,
  );
}

describe('PlantDevicesView', () => {
  test("lists with relationships: type, vendor, load signature and the device's sensors", async () => {
    const app = await mountView();
    expect(app.callsTo('listDevices')[0]!.input!.query).toMatchObject({
      includeRelationships: true,
      sort: 'name,asc',
    });
    const rows = app.wrapper.findAll('tbody tr').map((row) => row.text());
    expect(rows[0]).toContain('Heat pump, winter day');
    expect(rows[0]).toContain('No sensor');
    expect(rows[1]).toContain('PV inverter');
    expect(rows[1]).toContain('SMA Modbus');
    expect(rows[1]).toContain('STP-1');
    expect(rows[1]).toMatch(/8[,.\s]?000 W/);
    expect(rows[1]).toContain('PV production · Production');
  });

  test('search goes to the server as `search`', async () => {
    const app = await mountView();
    await app.wrapper.find('input[type="search"]').setValue('inverter');
    await new Promise((resolve) => setTimeout(resolve, 350));
    await app.settle();
    expect(app.callsTo('listDevices').at(-1)!.input!.query).toMatchObject({
      search: 'inverter',
      page: 0,
    });
  });

  test('opens the device form to edit, with the linked sensors ticked', async () => {
    const app = await mountView();
    await button(app, 'Edit PV inverter').trigger('click');
    await app.settle();
    expect(app.wrapper.text()).toContain('Edit device PV inverter');
    const label = app.wrapper.findAll('label').find((l) => l.text() === 'PV production');
    expect(label).toBeDefined();
  });

  test('deletes after confirmation', async () => {
    const app = await mountView();
    await button(app, 'Delete PV inverter').trigger('click');
    await app.settle();
    await app.wrapper.find('form.confirm-delete').trigger('submit');
    await app.settle();
    expect(app.callsTo('deleteDevice')[0]!.input!.params).toEqual({
      plantUuid: PLANT,
      deviceUuid: INVERTER.deviceUuid,
    });
  });

  test('a reader cannot create, edit or delete', async () => {
    const app = await mountView({}, [...ALL_READ_PERMISSIONS]);
    const create = app.wrapper.findAll('button').find((b) => b.text() === 'Create device');
    expect(create!.attributes('disabled')).toBeDefined();
    expect(button(app, 'Edit PV inverter').attributes('disabled')).toBeDefined();
    expect(button(app, 'Delete PV inverter').attributes('disabled')).toBeDefined();
    expect(app.wrapper.text()).toContain('Requires the permission DEVICES CREATE');
  });
});

describe('PlantDevicesView in German', () => {
  test('columns, grouped power, flows and the device form with its own check', async () => {
    i18n.global.locale.value = 'de';
    const app = await mountView();
    const headers = app.wrapper.findAll('th').map((th) => th.text());
    expect(headers).toEqual(expect.arrayContaining(['Anbieter', 'Seriennummer', 'Nennleistung']));
    const rows = app.wrapper.findAll('tbody tr').map((row) => row.text());
    expect(rows[0]).toContain('Kein Sensor');
    expect(rows[1]).toContain('8.000 W');
    expect(rows[1]).toContain('PV production · Erzeugung');

    await app.wrapper
      .findAll('button')
      .find((b) => b.text() === 'Gerät anlegen')!
      .trigger('click');
    await app.settle();
    expect(app.wrapper.find('legend').text()).toBe('Verknüpfte Sensoren');
    await app.wrapper.find('form.form-shell').trigger('submit');
    await app.settle();
    expect(app.wrapper.text()).toContain('Wählen Sie einen Gerätetyp.');
  });
});
