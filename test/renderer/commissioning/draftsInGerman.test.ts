// @vitest-environment happy-dom
import { afterEach, describe, expect, test } from 'vitest';
import type { DraftSendResult } from '../../../electron/ipc/contract.ts';
import { formattersFor } from '../../../i18n/format.ts';
import CommissioningDrafts from '../../../renderer/src/components/commissioning/drafts/CommissioningDrafts.vue';
import DraftDevicesStep from '../../../renderer/src/components/commissioning/drafts/DraftDevicesStep.vue';
import DraftPlantForm from '../../../renderer/src/components/commissioning/drafts/DraftPlantForm.vue';
import DraftSensorsStep from '../../../renderer/src/components/commissioning/drafts/DraftSensorsStep.vue';
import { i18n } from '../../../renderer/src/i18n.ts';
import CommissioningDraftView from '../../../renderer/src/views/CommissioningDraftView.vue';
import { mountWithApp, page } from '../support/mountWithApp.ts';
import { button, control } from '../support/queries.ts';
import { draft, DRAFT_ID, GRID_REFUSED } from './draftFixtures.ts';
import { INVERTER_TYPE, PLANT_UUID, POWER_METER, SIMULATOR } from './fixtures.ts';

/**
 * The drafts in German: the list with its states, counts (singular and plural) and dates as
 * German writes them, the draft's banner, a send the server partly refused (each refusal named
 * on its entry in German beside the server's own words), and the draft's forms: their tables,
 * problems and numbers in German.
 */

afterEach(() => {
  i18n.global.locale.value = 'en';
});

describe('the drafts in German', () => {
  test('the list: states, counts with their plural, a German date, named actions', async () => {
    i18n.global.locale.value = 'de';
    const one = draft({
      draftId: '55555555-5555-4555-8555-555555555555',
      content: { ...draft().content, plant: { ...draft().content.plant, name: 'Shed' } },
      status: 'partlySent',
      refusals: [{ section: 'sensors', key: 'sensor-2', kind: 'refused', message: 'no' }],
    });
    one.content.sensors = one.content.sensors.slice(0, 1);
    const app = await mountWithApp(CommissioningDrafts, {
      route: '/commission',
      channels: { 'drafts.list': [draft(), one] },
    });
    await app.settle();
    const { wrapper } = app;
    expect(wrapper.find('h2').text()).toBe('Entwürfe');
    expect(wrapper.findAll('thead th').map((cell) => cell.text())).toEqual([
      'Anlage',
      'Status',
      'Geändert',
      'Inhalt',
      'Aktionen',
    ]);
    const rows = wrapper.findAll('tbody tr').map((row) => row.findAll('th, td'));
    expect(rows[0]![1]!.text()).toBe('Nicht gesendet');
    // In the computer's zone, as German writes it: "20.11.2026, 11:05" in UTC.
    expect(rows[0]![2]!.text()).toBe(formattersFor('de').dateTime(draft().updatedAt));
    expect(rows[0]![2]!.text()).toMatch(/^20\.11\.2026, \d\d:\d\d$/);
    expect(rows[0]![3]!.text()).toBe('2 Sensoren, 1 Gerät');
    expect(rows[1]![1]!.text()).toBe('Abgelehnt');
    expect(rows[1]![3]!.text()).toBe('1 Sensor, 1 Gerät');
    expect(wrapper.find('a[aria-label="Entwurf Barn roof weiterbearbeiten"]').text()).toBe(
      'Weiterbearbeiten',
    );
    expect(button(wrapper, 'Entwurf Shed senden').text()).toBe('Senden');
    await button(wrapper, 'Entwurf Shed löschen').trigger('click');
    await app.settle();
    expect(wrapper.find('.confirm-delete').text()).toContain('Entwurf Shed löschen?');
  });

  test('the draft: its banner, and a partly refused send said in German', async () => {
    i18n.global.locale.value = 'de';
    const refused: DraftSendResult = {
      outcome: 'refused',
      message: '1 refusal',
      draft: {
        ...draft(),
        status: 'partlySent',
        sent: { plantUuid: PLANT_UUID, devices: {}, sensors: {}, vendors: {} },
        refusals: [GRID_REFUSED],
      },
    };
    const app = await mountWithApp(CommissioningDraftView, {
      props: { draftId: DRAFT_ID, step: 'verification' },
      route: `/commission/draft/${DRAFT_ID}/verification`,
      routes: {
        listSensorTypes: page([POWER_METER]),
        listDataTypesCollects: page([]),
        listDeviceTypes: page([INVERTER_TYPE]),
        listVendors: page([SIMULATOR]),
      },
      channels: { 'drafts.get': draft(), 'drafts.send': refused },
    });
    await app.settle();
    const { wrapper } = app;
    expect(wrapper.find('h1').text()).toBe('Inbetriebnahme-Entwurf: Barn roof');
    expect(wrapper.text()).toContain('Entwurf — noch nicht an Lokale Sandbox gesendet.');
    expect(wrapper.text()).toContain('Status: Nicht gesendet.');
    expect(wrapper.text()).toContain('Die Prüfung wartet auf die Verbindung');
    expect(button(wrapper, 'Entwurf senden').attributes('type')).toBe('submit');
    await wrapper.find('.draft-send form').trigger('submit');
    await app.settle();
    expect(wrapper.find('.draft-send [role="alert"]').text()).toContain(
      'Teilweise gesendet: Der Server hat das unten Aufgeführte abgelehnt',
    );
    const refusal = wrapper.find('[aria-label="Abgelehnt für Sensor Grid"]');
    expect(refusal.text()).toContain('Abgelehnt (connection): No answer from sim://barn/grid');
    expect(button(wrapper, 'Erneut senden').exists()).toBe(true);
  });
});

describe('the draft’s forms in German', () => {
  const catalogs = {
    sensorTypes: [POWER_METER],
    dataTypes: [],
    deviceTypes: [INVERTER_TYPE],
    vendors: [SIMULATOR],
  };

  test('sensors: the table, the waiting test, and the form’s problems in German', async () => {
    i18n.global.locale.value = 'de';
    const app = await mountWithApp(DraftSensorsStep, {
      props: { sensors: draft().content.sensors, catalogs, refusals: [] },
    });
    await app.settle();
    const { wrapper } = app;
    expect(wrapper.find('caption').text()).toBe('Sensoren dieses Entwurfs');
    expect(wrapper.find('tbody tr').text()).toContain('Wartet auf die Verbindung');
    expect(button(wrapper, 'Sensor Grid aus dem Entwurf entfernen').exists()).toBe(true);
    await button(wrapper, 'Sensor hinzufügen').trigger('click');
    await app.settle();
    const form = wrapper.find('form[aria-label="Neuer Sensor (Entwurf)"]');
    await form.trigger('submit');
    await app.settle();
    expect(form.text()).toContain('Name ist erforderlich');
    expect(form.text()).toContain('Sensortyp ist erforderlich');
    expect(button(wrapper, 'Im Entwurf speichern').attributes('type')).toBe('submit');
  });

  test('devices: rated power with German digits, sensors linked', async () => {
    i18n.global.locale.value = 'de';
    const content = draft().content;
    const app = await mountWithApp(DraftDevicesStep, {
      props: {
        devices: [{ ...content.devices[0]!, ratedPowerW: 4999.5 }],
        sensors: content.sensors,
        catalogs,
        refusals: [],
      },
    });
    await app.settle();
    const cells = app.wrapper.findAll('tbody td').map((cell) => cell.text());
    expect(cells).toEqual(expect.arrayContaining(['4.999,5 W', 'PV output']));
    expect(app.wrapper.findAll('thead th').map((cell) => cell.text())).toEqual([
      'Name',
      'Typ',
      'Seriennummer',
      'Nennleistung',
      'Sensoren',
      'Aktionen',
    ]);
  });

  test('the plant: a latitude out of range said as the plant form says it', async () => {
    i18n.global.locale.value = 'de';
    const app = await mountWithApp(DraftPlantForm, { props: {} });
    await app.settle();
    const { wrapper } = app;
    await control(wrapper, 'Name').setValue('Scheune');
    await control(wrapper, 'Breitengrad').setValue('95');
    await control(wrapper, 'Längengrad').setValue('11.35');
    await wrapper.find('form[aria-label="Neue Anlage (Entwurf)"]').trigger('submit');
    await app.settle();
    expect(wrapper.text()).toContain('Der Breitengrad muss zwischen -90 und 90 Grad liegen');
    expect(button(wrapper, 'Entwurf beginnen').exists()).toBe(true);
  });

  test('the plant: German decimals are saved as numbers, grouped ones refused', async () => {
    i18n.global.locale.value = 'de';
    const app = await mountWithApp(DraftPlantForm, { props: {} });
    await app.settle();
    const { wrapper } = app;
    const form = wrapper.find('form[aria-label="Neue Anlage (Entwurf)"]');
    await control(wrapper, 'Name').setValue('Scheune');
    await control(wrapper, 'Breitengrad').setValue('46.498,3');
    await control(wrapper, 'Längengrad').setValue('11,3548');
    // The time zone select is PrimeVue's: its model is set as choosing an option would.
    wrapper.findComponent({ name: 'SelectField' }).vm.$emit('update:modelValue', 'Europe/Rome');
    await form.trigger('submit');
    await app.settle();
    expect(wrapper.text()).toContain(
      '„46.498,3“ bitte ohne Tausendertrennzeichen schreiben, Dezimalstellen nach „,“',
    );
    expect(wrapper.emitted('save')).toBeUndefined();
    await control(wrapper, 'Breitengrad').setValue('46,4983');
    await form.trigger('submit');
    await app.settle();
    expect(wrapper.emitted('save')?.[0]?.[0]).toMatchObject({
      location: { latitude: 46.4983, longitude: 11.3548 },
    });
  });

  test('devices: rated power shown and read back with a decimal comma', async () => {
    i18n.global.locale.value = 'de';
    const content = draft().content;
    const device = { ...content.devices[0]!, ratedPowerW: 4999.5 };
    const app = await mountWithApp(DraftDevicesStep, {
      props: { devices: [device], sensors: content.sensors, catalogs, refusals: [] },
    });
    await app.settle();
    const { wrapper } = app;
    await button(wrapper, `Gerät ${device.name} bearbeiten`).trigger('click');
    await app.settle();
    const rated = control(wrapper, 'Nennleistung (W)');
    expect((rated.element as HTMLInputElement).value).toBe('4999,5');
    await rated.setValue('5000,25');
    await wrapper.find('form').trigger('submit');
    await app.settle();
    expect(wrapper.emitted('change')?.[0]?.[0]).toMatchObject([{ ratedPowerW: 5000.25 }]);
  });
});
