// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import { i18n } from '../../../renderer/src/i18n.ts';
import PlantForm from '../../../renderer/src/components/plants/PlantForm.vue';
import PlantsView from '../../../renderer/src/views/PlantsView.vue';
import PlantView from '../../../renderer/src/views/PlantView.vue';
import { mountWithApp, page } from '../support/mountWithApp.ts';
import { button, errorOf, labelled, mountOverview, plant, PLANT_UUID } from './fixtures.ts';

const ROUTE = `/plants/${PLANT_UUID}`;

/** The plant screens in German: words, plurals and decimal commas follow the language. */
describe('plant screens in German', () => {
  test('the list: title, columns and the peak power with a decimal comma', async () => {
    i18n.global.locale.value = 'de';
    const app = await mountWithApp(PlantsView, {
      route: '/plants',
      routes: { listPlants: page([plant()]) },
    });
    const text = app.wrapper.text();
    expect(app.wrapper.find('h1').text()).toBe('Anlagen');
    expect(text).toContain('Zeitzone');
    expect(text).toContain('PV-Spitzenleistung (kWp)');
    expect(text).toContain('8,4');
    expect(text).not.toContain('8.4');
  });

  test('the list tells when each plant was created and changed on its own clock', async () => {
    i18n.global.locale.value = 'de';
    const newYork = plant({
      plantUuid: '1b6a3b0e-5f0e-4f43-9f67-2e8f3f6c1d7b',
      name: 'New York',
      location: { latitude: 40.71, longitude: -74.01, timezone: 'America/New_York' },
    });
    const app = await mountWithApp(PlantsView, {
      route: '/plants',
      routes: { listPlants: page([plant(), newYork]) },
    });
    const times = app.wrapper
      .findAll('tbody tr')
      .map((row) => row.findAll('time').map((time) => time.text()));
    // 08:00 and 09:30 UTC: an hour later in Rome, five earlier in New York (winter).
    expect(times).toEqual([
      ['10.01.2025, 09:00', '11.01.2025, 10:30'],
      ['10.01.2025, 03:00', '11.01.2025, 04:30'],
    ]);
  });

  test('the plant page: its sections and actions', async () => {
    i18n.global.locale.value = 'de';
    const app = await mountWithApp(PlantView, {
      props: { plantUuid: PLANT_UUID },
      route: ROUTE,
      routes: { getPlant: plant() },
    });
    const links = app.wrapper.findAll('nav a').map((link) => link.text());
    expect(links).toEqual([
      'Übersicht',
      'Dashboard',
      'Auswertung',
      'Datenqualität',
      'Geräte',
      'Sensoren',
      'Anbieter',
      'Berichte',
      'Vergleichen',
    ]);
    expect(button(app.wrapper, 'Bearbeiten').exists()).toBe(true);
  });

  test('the overview: decimal commas, the compass point and counted devices in both plurals', async () => {
    i18n.global.locale.value = 'de';
    const app = await mountOverview({
      getPlant: plant(),
      listDevices: page([{}], 6, 1),
      listSensors: page([{}], 1, 1),
    });
    const text = app.wrapper.text();
    expect(text).toContain('46,4983°');
    expect(text).toContain('8,4 kWp');
    expect(text).toContain('(Süd)');
    expect(text).toContain('6 Geräte');
    expect(text).toContain('1 Sensor');
    expect(text).not.toContain('1 Sensoren');
    expect(text).toContain('Standort');
  });

  test('the form: labels and its own validation messages', async () => {
    i18n.global.locale.value = 'de';
    const app = await mountWithApp(PlantForm, { route: '/plants/new', routes: {} });
    await labelled(app.wrapper, 'Name').setValue('Casa Rossi');
    await labelled(app.wrapper, 'Breitengrad (°)').setValue('91');
    await labelled(app.wrapper, 'Längengrad (°)').setValue('Ost');
    expect(button(app.wrapper, 'Anlage anlegen').exists()).toBe(true);
    await app.wrapper.find('form').trigger('submit');
    await app.settle();
    expect(errorOf(app.wrapper, 'Breitengrad (°)')).toBe(
      'Der Breitengrad muss zwischen -90 und 90 Grad liegen',
    );
    expect(errorOf(app.wrapper, 'Längengrad (°)')).toBe('„Ost“ ist keine Zahl');
    expect(app.callsTo('createPlant')).toEqual([]);
  });
});
