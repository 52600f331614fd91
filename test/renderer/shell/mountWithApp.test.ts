// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import { defineComponent, h, ref } from 'vue';
import { useBridge } from '../../../renderer/src/bridge.ts';
import { useSessionStore } from '../../../renderer/src/stores/useSessionStore.ts';
import { apiError, mountWithApp, page } from '../support/mountWithApp.ts';

const Probe = defineComponent({
  setup() {
    const bridge = useBridge();
    const session = useSessionStore();
    const text = ref('');
    async function load(): Promise<void> {
      try {
        const result = await bridge.call('listPlants', { query: { search: 'x' } });
        text.value = `plants ${result.page.totalElements}`;
      } catch (caught) {
        text.value = `error ${(caught as Error).message}`;
      }
    }
    void load();
    return () => h('p', `${session.user?.email ?? 'nobody'} ${text.value}`);
  },
});

describe('mountWithApp', () => {
  test('answers routes, records calls, preloads the session and sets the route', async () => {
    const app = await mountWithApp(Probe, {
      routes: { listPlants: page([{ name: 'A' }]) },
      route: '/catalogs/device-types',
    });
    expect(app.wrapper.text()).toBe('installer@plantdesk.test plants 1');
    expect(app.callsTo('listPlants')[0]!.input).toEqual({ query: { search: 'x' } });
    expect(app.router.currentRoute.value.name).toBe('deviceTypes');
  });

  test('answers errors and functions; a missing answer names the route', async () => {
    const failing = await mountWithApp(Probe, {
      routes: { listPlants: apiError(403, 'Permission PLANTS READ required') },
      user: null,
    });
    expect(failing.wrapper.text()).toBe('nobody error Permission PLANTS READ required');
    const fn = await mountWithApp(Probe, {
      routes: {
        listPlants: (input: { query: { search: string } }) => page([], input.query.search.length),
      },
    });
    expect(fn.wrapper.text()).toContain('plants 1');
    const missing = await mountWithApp(Probe);
    expect(missing.wrapper.text()).toContain("no answer for route 'listPlants'");
  });
});
