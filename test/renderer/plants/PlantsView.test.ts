// @vitest-environment happy-dom
import { afterEach, describe, expect, test, vi } from 'vitest';
import { ALL_READ_PERMISSIONS } from '../../../api/permissions.ts';
import PlantsView from '../../../renderer/src/views/PlantsView.vue';
import { apiError, mountWithApp, page } from '../support/mountWithApp.ts';
import { labelled, plant, PLANT_UUID } from './fixtures.ts';

afterEach(() => {
  vi.useRealTimers();
});

const OTHER = plant({
  plantUuid: '11111111-2222-4333-8444-555555555555',
  name: 'Casa Rossi',
  externalIds: [],
  pv: null,
});

async function typeAndWait(
  app: Awaited<ReturnType<typeof mountWithApp>>,
  label: string,
  text: string,
) {
  await labelled(app.wrapper, label).setValue(text);
  await vi.advanceTimersByTimeAsync(350);
  await app.settle();
}

describe('PlantsView', () => {
  test('lists the first page sorted by name, with the plant columns', async () => {
    const app = await mountWithApp(PlantsView, {
      routes: { listPlants: page([plant(), OTHER], 45) },
    });
    expect(app.callsTo('listPlants')[0]!.input!.query).toEqual({
      page: 0,
      size: 20,
      sort: 'name,asc',
      search: undefined,
    });
    const text = app.wrapper.text();
    expect(text).toContain('Demo Home');
    expect(text).toContain('DEMO-HOME-001');
    expect(text).toContain('Europe/Rome');
    expect(text).toContain('8.4');
    expect(text).toContain('No PV');
    expect(app.wrapper.find('table').attributes('aria-labelledby')).toBe('plants-title');
  });

  test('search, external-id filter, sort and page go to the API as its own parameters', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const app = await mountWithApp(PlantsView, { routes: { listPlants: page([plant()], 45) } });

    await typeAndWait(app, 'Search plants', ' home ');
    expect(app.callsTo('listPlants').at(-1)!.input!.query).toMatchObject({
      page: 0,
      search: 'home',
    });

    await typeAndWait(app, 'External id', 'DEMO-HOME-001, POD-2');
    expect(app.callsTo('listPlants').at(-1)!.input!.query).toMatchObject({
      page: 0,
      search: 'home',
      externalIds: 'DEMO-HOME-001,POD-2',
    });

    const table = app.wrapper.findComponent({ name: 'DataTable' });
    table.vm.$emit('sort', { sortField: 'createdAt', sortOrder: -1 });
    await app.settle();
    expect(app.callsTo('listPlants').at(-1)!.input!.query).toMatchObject({
      page: 0,
      sort: 'createdAt,desc',
    });

    table.vm.$emit('page', { first: 20, rows: 20, page: 1 });
    await app.settle();
    expect(app.callsTo('listPlants').at(-1)!.input!.query).toMatchObject({
      page: 1,
      size: 20,
      sort: 'createdAt,desc',
      search: 'home',
      externalIds: 'DEMO-HOME-001,POD-2',
    });

    await typeAndWait(app, 'External id', '');
    expect(app.callsTo('listPlants').at(-1)!.input!.query).not.toHaveProperty('externalIds');
  });

  test('an empty answer says why; a failure shows the server’s message and retries', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const app = await mountWithApp(PlantsView, { routes: { listPlants: page([]) } });
    expect(app.wrapper.text()).toContain('No plants yet.');
    await typeAndWait(app, 'External id', 'X-1');
    expect(app.wrapper.text()).toContain('No plant has the external id X-1.');

    app.routes.listPlants = apiError(500, 'Database unavailable');
    await typeAndWait(app, 'Search plants', 'a');
    expect(app.wrapper.find('[role="alert"]').text()).toContain('Database unavailable');
    app.routes.listPlants = page([plant()]);
    const retry = app.wrapper.findAll('button').find((b) => b.text() === 'Retry')!;
    await retry.trigger('click');
    await app.settle();
    expect(app.wrapper.find('[role="alert"]').exists()).toBe(false);
    expect(app.wrapper.text()).toContain('Demo Home');
  });

  test('a row opens its plant; the name is a link', async () => {
    const app = await mountWithApp(PlantsView, { routes: { listPlants: page([plant()]) } });
    const link = app.wrapper.find(
      `a[href="#/plants/${PLANT_UUID}"], a[href="/plants/${PLANT_UUID}"]`,
    );
    expect(link.exists()).toBe(true);
    await app.wrapper.find('tbody tr td:nth-child(3)').trigger('click');
    await app.settle();
    expect(app.router.currentRoute.value.name).toBe('plant');
    expect(app.router.currentRoute.value.params.plantUuid).toBe(PLANT_UUID);
  });

  test('New plant needs PLANTS CREATE; Commission a plant links to the wizard', async () => {
    const installer = await mountWithApp(PlantsView, { routes: { listPlants: page([]) } });
    const newPlant = installer.wrapper.findAll('button').find((b) => b.text() === 'New plant')!;
    expect(newPlant.attributes('disabled')).toBeUndefined();
    await newPlant.trigger('click');
    await installer.settle();
    expect(installer.router.currentRoute.value.name).toBe('plantNew');
    const commission = installer.wrapper
      .findAll('a')
      .find((a) => a.text().includes('Commission a plant'))!;
    expect(commission.attributes('href')).toContain('/commission');

    const manager = await mountWithApp(PlantsView, {
      routes: { listPlants: page([]) },
      user: { permissions: [...ALL_READ_PERMISSIONS] },
    });
    const blocked = manager.wrapper.findAll('button').find((b) => b.text() === 'New plant')!;
    expect(blocked.attributes('disabled')).toBeDefined();
    expect(manager.wrapper.text()).toContain('Requires the permission PLANTS CREATE');
  });
});
