// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import { defineComponent, h } from 'vue';
import type { Environment } from '../../../electron/ipc/contract.ts';
import { useBridge } from '../../../renderer/src/bridge.ts';
import AppBreadcrumbs from '../../../renderer/src/components/AppBreadcrumbs.vue';
import AppHeader from '../../../renderer/src/components/AppHeader.vue';
import AppNav from '../../../renderer/src/components/AppNav.vue';
import EnvironmentSwitcher from '../../../renderer/src/components/EnvironmentSwitcher.vue';
import OfflineBanner from '../../../renderer/src/components/OfflineBanner.vue';
import { useConnectivityStore } from '../../../renderer/src/stores/useConnectivityStore.ts';
import { useEnvironmentStore } from '../../../renderer/src/stores/useEnvironmentStore.ts';
import {
  LOCAL_ENVIRONMENT,
  mountWithApp,
  networkError,
  TEST_USER,
} from '../support/mountWithApp.ts';

const PLANT_UUID = '11111111-1111-4111-8111-111111111111';
const ACME: Environment = {
  id: 'acme',
  name: 'Acme production',
  kind: 'production',
  baseUrl: 'https://api.acme.example',
  source: 'user',
};

describe('AppHeader', () => {
  test('names the app, shows the switcher and the account with email and Sign out', async () => {
    const app = await mountWithApp(AppHeader);
    const header = app.wrapper.get('header');
    expect(header.text()).toContain('PlantDesk');
    expect(header.text()).toContain('Local sandbox');
    expect(header.text()).toContain(TEST_USER.email);
    expect(header.text()).not.toContain('PRODUCTION');
    expect(app.wrapper.findAll('button').some((b) => b.text() === 'Sign out')).toBe(true);
    const combobox = app.wrapper.get('[role="combobox"]');
    const label = app.wrapper.get(`[id="${combobox.attributes('aria-labelledby')}"]`);
    expect(label.text()).toBe('Environment');
  });

  test('signed out: the switcher still shows, the account does not', async () => {
    const app = await mountWithApp(AppHeader, { user: null, route: '/sign-in' });
    expect(app.wrapper.find('[role="combobox"]').exists()).toBe(true);
    expect(app.wrapper.findAll('button').some((b) => b.text() === 'Sign out')).toBe(false);
  });

  test('production: red header, its name, and the banner', async () => {
    const app = await mountWithApp(AppHeader, { environment: ACME });
    const header = app.wrapper.get('header');
    expect(header.classes()).toContain('production');
    expect(header.text()).toContain('PRODUCTION · Acme production');
    expect(header.text()).toContain('Production environment: changes affect real plants.');
  });
});

describe('AppNav', () => {
  test('links every section and marks the current one', async () => {
    const app = await mountWithApp(AppNav, { route: `/plants/${PLANT_UUID}/devices` });
    const links = app.wrapper.findAll('a');
    expect(links.map((link) => link.text())).toEqual([
      'Fleet',
      'Alerts',
      'Plants',
      'Reports',
      'Commissioning',
      'Catalogs',
      'Environments',
      'Support',
    ]);
    expect(links.map((link) => link.attributes('aria-current'))).toEqual([
      undefined,
      undefined,
      'page',
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    await app.router.push('/catalogs/device-types');
    await app.settle();
    expect(app.wrapper.get('a[aria-current="page"]').text()).toBe('Catalogs');
  });
});

describe('AppBreadcrumbs', () => {
  test("shows the plant's name, links the ancestors, and marks the page", async () => {
    const app = await mountWithApp(AppBreadcrumbs, {
      route: `/plants/${PLANT_UUID}/devices`,
      routes: { getPlant: { plantUuid: PLANT_UUID, name: 'Demo Home' } },
    });
    await app.settle();
    const items = app.wrapper.findAll('li');
    expect(items.map((item) => item.text())).toEqual(['Plants', 'Demo Home', 'Devices']);
    expect(app.wrapper.findAll('a').map((a) => a.attributes('href'))).toEqual([
      '/plants',
      `/plants/${PLANT_UUID}`,
    ]);
    expect(items[2]!.get('[aria-current="page"]').text()).toBe('Devices');
    expect(app.callsTo('getPlant')[0]!.input).toEqual({ params: { plantUuid: PLANT_UUID } });
  });

  test('a plant that cannot be read keeps a generic crumb', async () => {
    const app = await mountWithApp(AppBreadcrumbs, {
      route: `/plants/${PLANT_UUID}`,
      routes: { getPlant: { kind: 'api', status: 404, message: 'Plant not found' } },
    });
    await app.settle();
    expect(app.wrapper.findAll('li').map((item) => item.text())).toEqual(['Plants', 'Plant']);
  });

  test('catalog pages', async () => {
    const app = await mountWithApp(AppBreadcrumbs, { route: '/catalogs/load-signatures' });
    expect(app.wrapper.findAll('li').map((item) => item.text())).toEqual([
      'Catalogs',
      'Load signatures',
    ]);
  });
});

describe('EnvironmentSwitcher', () => {
  test('switching to an environment without a session goes to sign-in', async () => {
    const app = await mountWithApp(EnvironmentSwitcher, {
      otherEnvironments: [ACME],
      channels: { 'environments.select': { environmentId: 'acme', status: 'signedOut' } },
      route: '/plants',
    });
    const select = app.wrapper.findComponent({ name: 'Select' });
    select.vm.$emit('update:modelValue', 'acme');
    await app.settle();
    expect(app.calls.find((call) => call.channel === 'environments.select')?.args).toEqual([
      'acme',
    ]);
    expect(useEnvironmentStore().isProduction).toBe(true);
    expect(app.router.currentRoute.value.name).toBe('signIn');
  });

  test('switching to an environment with a session goes to its plants', async () => {
    const app = await mountWithApp(EnvironmentSwitcher, {
      otherEnvironments: [ACME],
      channels: {
        'environments.select': { environmentId: 'acme', status: 'signedIn', user: TEST_USER },
      },
      route: '/catalogs/sensor-types',
    });
    app.wrapper.findComponent({ name: 'Select' }).vm.$emit('update:modelValue', 'acme');
    await app.settle();
    expect(app.router.currentRoute.value.name).toBe('plants');
  });
});

describe('OfflineBanner', () => {
  /** A screen whose load fails while the server is away, with its retry registered. */
  const Screen = defineComponent({
    setup() {
      const bridge = useBridge();
      const load = () => bridge.call('listPlants', {}).catch(() => undefined);
      useConnectivityStore().registerRetry(load);
      void load();
      return () => h(OfflineBanner);
    },
  });

  test('a network failure shows "Cannot reach"; Retry re-runs the screen\'s load', async () => {
    const app = await mountWithApp(Screen, {
      routes: { listPlants: networkError('connect ECONNREFUSED 127.0.0.1:4010') },
    });
    const banner = app.wrapper.get('[role="alert"]');
    expect(banner.text()).toContain(`Cannot reach ${LOCAL_ENVIRONMENT.name}.`);
    expect(banner.text()).toContain('ECONNREFUSED');

    // Still down: the banner stays.
    await banner.get('button').trigger('click');
    await app.settle();
    expect(app.callsTo('listPlants')).toHaveLength(2);
    expect(app.wrapper.find('[role="alert"]').exists()).toBe(true);

    app.routes.listPlants = {
      content: [],
      page: { number: 0, size: 20, totalElements: 0, totalPages: 0 },
    };
    await app.wrapper.get('[role="alert"] button').trigger('click');
    await app.settle();
    expect(app.callsTo('listPlants')).toHaveLength(3);
    expect(app.wrapper.find('[role="alert"]').exists()).toBe(false);
  });

  test('without a registered retry it reads the user again; any success hides it', async () => {
    const app = await mountWithApp(OfflineBanner, { routes: { listPlants: networkError() } });
    await useBridge()
      .call('listPlants', {})
      .catch(() => undefined);
    await app.settle();
    expect(app.wrapper.find('[role="alert"]').exists()).toBe(true);
    await app.wrapper.get('button').trigger('click');
    await app.settle();
    expect(app.calls.some((call) => call.channel === 'session.refreshUser')).toBe(true);
    expect(app.wrapper.find('[role="alert"]').exists()).toBe(false);
  });

  test("a proxy's refusal raises it with the proxy's words: the server is out of reach", async () => {
    const refusal =
      "The proxy between PlantDesk and https://api.acme.example refused the connection. Check that your company's proxy allows this address (your IT department can tell) and that this computer's proxy settings are right.";
    const app = await mountWithApp(OfflineBanner, {
      routes: { listPlants: { kind: 'proxy', message: refusal } },
    });
    await useBridge()
      .call('listPlants', {})
      .catch(() => undefined);
    await app.settle();
    expect(app.wrapper.get('[role="alert"]').text()).toContain(refusal);
  });

  test('other failures (a 403, a 404) do not raise it', async () => {
    const app = await mountWithApp(OfflineBanner, {
      routes: {
        listPlants: { kind: 'api', status: 403, message: 'Permission PLANTS READ required' },
      },
    });
    await useBridge()
      .call('listPlants', {})
      .catch(() => undefined);
    await app.settle();
    expect(app.wrapper.find('[role="alert"]').exists()).toBe(false);
  });
});

describe('connectivity', () => {
  test('calls that stay inside the host do not lower the banner; switching environment does', async () => {
    const app = await mountWithApp(OfflineBanner, {
      routes: { listPlants: networkError() },
      otherEnvironments: [ACME],
      channels: { 'environments.select': { environmentId: 'acme', status: 'signedOut' } },
    });
    await useBridge()
      .call('listPlants', {})
      .catch(() => undefined);
    await useBridge().invoke('environments.list');
    await app.settle();
    expect(app.wrapper.find('[role="alert"]').exists()).toBe(true);
    await useEnvironmentStore().select('acme');
    await app.settle();
    expect(app.wrapper.find('[role="alert"]').exists()).toBe(false);
  });
});
