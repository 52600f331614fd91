// @vitest-environment happy-dom
import { describe, expect, test, vi } from 'vitest';
import { ALL_READ_PERMISSIONS } from '../../../api/permissions.ts';
import { apiQueryKey } from '../../../renderer/src/queryClient.ts';
import PlantView from '../../../renderer/src/views/PlantView.vue';
import { apiError, mountWithApp, page } from '../support/mountWithApp.ts';
import { testQueryClient } from '../support/queryClientForComponents.ts';
import { button, mountOverview, plant, PLANT_UUID } from './fixtures.ts';

const ROUTE = `/plants/${PLANT_UUID}`;

describe('PlantView', () => {
  test('shows the plant’s name, its sections as links and its actions', async () => {
    const app = await mountWithApp(PlantView, {
      props: { plantUuid: PLANT_UUID },
      route: `${ROUTE}/devices`,
      routes: { getPlant: plant() },
    });
    expect(app.wrapper.find('h1').text()).toBe('Demo Home');
    const nav = app.wrapper.find('nav[aria-label="Plant sections"]');
    const links = nav.findAll('a');
    expect(links.map((link) => link.text())).toEqual([
      'Overview',
      'Dashboard',
      'Analytics',
      'Data health',
      'Devices',
      'Sensors',
      'Vendors',
      'Reports',
      'Compare',
    ]);
    expect(links[4]!.attributes('aria-current')).toBe('page');
    expect(links.filter((link) => link.attributes('aria-current'))).toHaveLength(1);
    expect(button(app.wrapper, 'Edit').attributes('disabled')).toBeUndefined();
    const commissioning = app.wrapper.findAll('a').find((a) => a.text() === 'Commissioning')!;
    expect(commissioning.attributes('href')).toContain(`/commission/${PLANT_UUID}`);

    await button(app.wrapper, 'Edit').trigger('click');
    await app.settle();
    expect(app.router.currentRoute.value.name).toBe('plantEdit');
  });

  test('“Plant not found” with a way back for a 404 (another organization, deleted)', async () => {
    const app = await mountWithApp(PlantView, {
      props: { plantUuid: PLANT_UUID },
      route: ROUTE,
      routes: { getPlant: apiError(404, `Plant ${PLANT_UUID} not found`) },
    });
    expect(app.wrapper.find('h1').text()).toBe('Plant not found');
    const back = app.wrapper.findAll('a').find((a) => a.text() === 'Back to plants');
    expect(back?.attributes('href')).toContain('/plants');
    expect(app.wrapper.find('nav').exists()).toBe(false);
  });

  test('another failure shows its message with Retry, never a blank page', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const app = await mountWithApp(PlantView, {
      props: { plantUuid: PLANT_UUID },
      route: ROUTE,
      routes: { getPlant: { kind: 'network', message: 'The server is not reachable' } },
    });
    // An unreachable server is tried twice more (after 1 s, then 2 s) before it is said.
    await vi.advanceTimersByTimeAsync(3_000);
    vi.useRealTimers();
    expect(app.wrapper.find('[role="alert"]').text()).toContain('The server is not reachable');
    app.routes.getPlant = plant();
    await button(app.wrapper, 'Retry').trigger('click');
    await app.settle();
    expect(app.wrapper.find('h1').text()).toBe('Demo Home');
  });

  test('Delete asks with the plant’s name, deletes, and goes back to the list', async () => {
    const app = await mountWithApp(PlantView, {
      props: { plantUuid: PLANT_UUID },
      route: ROUTE,
      routes: { getPlant: plant(), deletePlant: undefined },
    });
    await button(app.wrapper, 'Delete').trigger('click');
    await app.settle();
    expect(app.wrapper.text()).toContain('Delete the plant Demo Home?');
    expect(app.callsTo('deletePlant')).toHaveLength(0);
    await app.wrapper.find('form.confirm-delete').trigger('submit');
    await app.settle();
    expect(app.callsTo('deletePlant')[0]!.input!.params).toEqual({ plantUuid: PLANT_UUID });
    expect(app.router.currentRoute.value.name).toBe('plants');
    // No other screen can show the deleted plant from the cache.
    const plantKey = apiQueryKey('getPlant', { params: { plantUuid: PLANT_UUID } });
    expect(testQueryClient().getQueryData(plantKey)).toBeUndefined();
  });

  test('a refused delete shows the server’s message', async () => {
    const app = await mountWithApp(PlantView, {
      props: { plantUuid: PLANT_UUID },
      route: ROUTE,
      routes: {
        getPlant: plant(),
        deletePlant: apiError(403, 'Permission PLANTS DELETE required'),
      },
    });
    await button(app.wrapper, 'Delete').trigger('click');
    await app.wrapper.find('form.confirm-delete').trigger('submit');
    await app.settle();
    expect(app.wrapper.text()).toContain('Permission PLANTS DELETE required');
    expect(app.router.currentRoute.value.name).toBe('plant');
  });

  test('without the permissions, Edit and Delete are disabled and say which permission', async () => {
    const app = await mountWithApp(PlantView, {
      props: { plantUuid: PLANT_UUID },
      route: ROUTE,
      routes: { getPlant: plant() },
      user: { permissions: [...ALL_READ_PERMISSIONS] },
    });
    expect(button(app.wrapper, 'Edit').attributes('disabled')).toBeDefined();
    expect(button(app.wrapper, 'Delete').attributes('disabled')).toBeDefined();
    expect(app.wrapper.text()).toContain('Requires the permission PLANTS UPDATE');
    expect(app.wrapper.text()).toContain('Requires the permission PLANTS DELETE');
  });
});

describe('PlantOverviewView', () => {
  test('location, PV with units, ids, metadata and the device and sensor counts', async () => {
    const app = await mountOverview({
      getPlant: plant(),
      listDevices: page([{}], 6, 1),
      listSensors: apiError(403, 'Permission SENSORS READ required'),
    });
    const text = app.wrapper.text();
    expect(text).toContain('46.4983°');
    expect(text).toContain('11.3548°');
    expect(text).toContain('262 m');
    expect(text).toContain('Europe/Rome');
    expect(text).toContain('8.4 kWp');
    expect(text).toContain('180°');
    expect(text).toContain('(south)');
    expect(text).toContain('14 %');
    expect(text).toContain('DEMO-HOME-001');
    expect(text).toContain('Via dei Campi 12, Bolzano');
    expect(text).toContain('householdSize');
    expect(text).toContain('6 devices');
    expect(text).toContain('Permission SENSORS READ required');
    expect(app.callsTo('listDevices')[0]!.input).toEqual({
      params: { plantUuid: PLANT_UUID },
      query: { size: 1 },
    });
  });

  test('a plant without PV says so', async () => {
    const app = await mountOverview({
      getPlant: plant({ pv: null, metadata: {} }),
      listDevices: page([]),
      listSensors: page([]),
    });
    expect(app.wrapper.text()).toContain('No PV settings');
    expect(app.wrapper.text()).toContain('0 devices');
    expect(app.wrapper.text()).toContain('0 sensors');
  });
});

describe('PlantView sections', () => {
  test('Analytics stays the current section on each of its tabs', async () => {
    const app = await mountWithApp(PlantView, {
      props: { plantUuid: PLANT_UUID },
      route: `${ROUTE}/analytics/history`,
      routes: { getPlant: plant() },
    });
    const current = app.wrapper
      .find('nav[aria-label="Plant sections"]')
      .findAll('a')
      .filter((link) => link.attributes('aria-current') === 'page');
    expect(current.map((link) => link.text())).toEqual(['Analytics']);
  });
});
