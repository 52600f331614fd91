// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import type { Draft, DraftContent } from '../../../electron/ipc/contract.ts';
import CommissioningDraftView from '../../../renderer/src/views/CommissioningDraftView.vue';
import { mountWithApp, page } from '../support/mountWithApp.ts';
import { button, control } from '../support/queries.ts';
import type { Vendor } from '../../../api/schemas/vendors.ts';
import { INVERTER_TYPE, POWER_METER, SIMULATOR } from './fixtures.ts';

/**
 * A partly-sent draft in the wizard (a send created the plant, the inverter and its sensor, and
 * the server refused the grid sensor): what the server holds is shown as sent and is not edited
 * in the draft; what it does not hold is edited as before.
 */

const DRAFT_ID = '55555555-5555-4555-8555-555555555555';
const FRONIUS: Vendor = {
  vendorUuid: '99999999-9999-4999-8999-999999999999',
  code: 'FRONIUS',
  name: 'Fronius Solar.web',
  kind: 'PLATFORM',
  configSchema: {
    fields: [{ name: 'systemId', label: 'System id', type: 'string', required: true }],
  },
};

const CONTENT: DraftContent = {
  plant: {
    name: 'Dairy roof',
    externalIds: [`plantdesk-draft-${DRAFT_ID}`],
    location: { latitude: 46.5, longitude: 11.35, timezone: 'Europe/Rome' },
    pv: { peakPowerKw: 12, tiltDeg: 30, azimuthDeg: 180, lossesPercent: 14 },
  },
  devices: [{ key: 'inv', name: 'Inverter', deviceTypeUuid: INVERTER_TYPE.deviceTypeUuid }],
  sensors: [
    {
      key: 'pv',
      name: 'PV output',
      sensorTypeUuid: POWER_METER.sensorTypeUuid,
      flow: 'PRODUCTION',
      connection: { vendorUuid: SIMULATOR.vendorUuid, address: 'sim://dairy/pv' },
      deviceKey: 'inv',
    },
    {
      key: 'grid',
      name: 'Grid',
      sensorTypeUuid: POWER_METER.sensorTypeUuid,
      flow: 'GRID',
      connection: { vendorUuid: SIMULATOR.vendorUuid, address: 'sim://dairy/grdi' },
    },
  ],
  vendors: [{ vendorUuid: FRONIUS.vendorUuid, settings: { systemId: 'S-1' }, secretFields: [] }],
} as DraftContent;

const PARTLY_SENT: Draft = {
  draftId: DRAFT_ID,
  environmentId: 'local',
  account: 'installer@example.com',
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:05:00.000Z',
  content: CONTENT,
  status: 'partlySent',
  sent: {
    plantUuid: '66666666-6666-4666-8666-666666666666',
    devices: { inv: '77777777-7777-4777-8777-777777777777' },
    sensors: { pv: '88888888-8888-4888-8888-888888888888' },
    vendors: { [FRONIUS.vendorUuid]: '2026-11-20T10:04:00.000Z' },
  },
  refusals: [
    {
      section: 'sensors',
      key: 'grid',
      field: 'connection',
      kind: 'refused',
      status: 422,
      message: 'Connection test failed: nothing answers at sim://dairy/grdi',
    },
  ],
  lastSentAt: '2026-11-20T10:04:00.000Z',
};

async function wizard(step: string, saves: DraftContent[] = []) {
  const app = await mountWithApp(CommissioningDraftView, {
    props: { draftId: DRAFT_ID, step },
    route: `/commission/draft/${DRAFT_ID}/${step}`,
    routes: {
      listSensorTypes: page([POWER_METER]),
      listDataTypesCollects: page([]),
      listDeviceTypes: page([INVERTER_TYPE]),
      listVendors: page([SIMULATOR, FRONIUS]),
    },
    channels: {
      'drafts.get': PARTLY_SENT,
      'drafts.save': ([input]: [{ content: DraftContent }]) => {
        saves.push(input.content);
        return { ...PARTLY_SENT, content: input.content };
      },
    },
  });
  await app.settle();
  return app;
}

const row = (app: Awaited<ReturnType<typeof wizard>>, name: string) =>
  app.wrapper
    .findAll('tbody tr')
    .find((candidate) => candidate.find('th').text().startsWith(name))!;
const buttonNames = (app: Awaited<ReturnType<typeof wizard>>) =>
  app.wrapper.findAll('button').map((entry) => entry.attributes('aria-label') ?? entry.text());

describe('a partly-sent draft', () => {
  test('sensors: the sent one is marked and not editable; the refused one is corrected', async () => {
    const saves: DraftContent[] = [];
    const app = await wizard('sensors', saves);
    expect(row(app, 'PV output').text()).toContain('Sent');
    expect(row(app, 'PV output').text()).toContain('On the server: change it there');
    expect(row(app, 'PV output').text()).toContain('Passed when sent');
    expect(row(app, 'Grid').text()).not.toContain('Sent');
    expect(row(app, 'Grid').text()).toContain('Waits for the connection');
    expect(buttonNames(app)).not.toContain('Edit sensor PV output');
    expect(buttonNames(app)).not.toContain('Remove sensor PV output from the draft');

    await button(app.wrapper, 'Edit sensor Grid').trigger('click');
    await app.settle();
    await control(app.wrapper, 'Connection address').setValue('sim://dairy/grid');
    await app.wrapper.find('form[aria-label="Edit sensor Grid (draft)"]').trigger('submit');
    await app.settle();
    expect(saves).toHaveLength(1);
    expect(saves[0]!.sensors[0]).toEqual(CONTENT.sensors[0]);
    expect(saves[0]!.sensors[1]!.connection?.address).toBe('sim://dairy/grid');
  });

  test('devices: the sent one is marked; a new device cannot take a sensor already sent', async () => {
    const app = await wizard('devices');
    expect(row(app, 'Inverter').text()).toContain('Sent');
    expect(buttonNames(app)).not.toContain('Edit device Inverter');
    await button(app.wrapper, 'Add device').trigger('click');
    await app.settle();
    const pv = control(app.wrapper, 'PV output (sent with its device)');
    expect(pv.attributes('disabled')).toBeDefined();
    expect(control(app.wrapper, 'Grid').attributes('disabled')).toBeUndefined();
  });

  test('plant: shown as sent, without a form to change it', async () => {
    const app = await wizard('plant');
    const plant = app.wrapper.get('section[aria-label="Draft plant Dairy roof"]');
    expect(plant.text()).toContain('Sent: the server holds this plant');
    expect(plant.text()).toContain('12 kWp');
    expect(app.wrapper.find('form[aria-label="Draft plant Dairy roof"]').exists()).toBe(false);
    expect(buttonNames(app)).not.toContain('Save in the draft');
  });

  test('vendors: settings the server took are marked, and not offered to configure again', async () => {
    const app = await wizard('vendors');
    const list = app.wrapper.get('ul[aria-label="Vendor integrations of this draft"]');
    expect(list.text()).toContain('Fronius Solar.web');
    expect(list.text()).toContain('Sent');
    expect(buttonNames(app)).not.toContain('Edit the settings of Fronius Solar.web');
    expect(buttonNames(app)).not.toContain('Configure');
  });

  test('every control shown has an accessible name', async () => {
    for (const step of ['plant', 'sensors', 'devices', 'vendors']) {
      const app = await wizard(step);
      const unnamed = app.wrapper
        .findAll('button, input:not([type="hidden"])')
        .filter(
          (control) =>
            !control.attributes('aria-label')?.trim() &&
            !control.text().trim() &&
            !app.wrapper.find(`label[for="${control.attributes('id')}"]`).exists(),
        );
      expect(unnamed.map((control) => control.html().slice(0, 80))).toEqual([]);
      app.wrapper.unmount();
    }
  });
});
