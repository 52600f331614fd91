// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import { defineComponent, h, type VNode } from 'vue';
import { PAGE_SIZE_MAX } from '../../../api/schemas/common.ts';
import { useMutationCall } from '../../../renderer/src/composables/useApiQuery.ts';
import {
  useCatalogOptions,
  usePlantDevices,
} from '../../../renderer/src/composables/useCatalogOptions.ts';
import { keysChangedBy } from '../../../renderer/src/invalidation.ts';
import { wholeListKey } from '../../../renderer/src/composables/useWholeList.ts';
import { testQueryClient } from '../support/queryClientForComponents.ts';
import { apiError, mountWithApp, page } from '../support/mountWithApp.ts';

/**
 * Lists read whole for selects (a plant's devices and sensors, the catalogs): every page as one
 * query of the shared cache, filed under the route's key, so the changes of the invalidation map
 * read them again with no screen reloading them by hand.
 */

type Input = { params?: Record<string, string>; query?: Record<string, any>; body?: any };
const named = (name: string) => ({ name });

/** A component made of what `setup` uses and renders. */
const probe = (setup: () => () => VNode) => defineComponent({ setup });

describe('a plant’s devices for a select', () => {
  test('every page is read, then read again once a device of the plant is created', async () => {
    let devices = Array.from({ length: PAGE_SIZE_MAX + 1 }, (_, index) => named(`D${index}`));
    const Devices = probe(() => {
      const list = usePlantDevices('p1', 'unread');
      const mutate = useMutationCall();
      return () =>
        h('div', [
          h('output', String(list.items.value?.length ?? 'none')),
          h('button', {
            onClick: () =>
              mutate('createDevice', {
                params: { plantUuid: 'p1' },
                body: { deviceTypeUuid: 'dt1' },
              }),
          }),
        ]);
    });
    const app = await mountWithApp(Devices, {
      routes: {
        listDevices: (input: Input) => {
          const number = input.query!.page as number;
          const size = input.query!.size as number;
          const content = devices.slice(number * size, (number + 1) * size);
          return page(content, devices.length, size, number);
        },
        createDevice: () => {
          devices = [...devices, named('New')];
          return named('New');
        },
      },
    });
    expect(app.callsTo('listDevices').map((call) => call.input)).toEqual(
      [0, 1].map((number) => ({
        params: { plantUuid: 'p1' },
        query: { sort: 'name,asc', includeRelationships: true, page: number, size: PAGE_SIZE_MAX },
      })),
    );
    expect(app.wrapper.find('output').text()).toBe(String(PAGE_SIZE_MAX + 1));

    await app.wrapper.find('button').trigger('click');
    await app.settle();
    expect(app.callsTo('listDevices')).toHaveLength(4);
    expect(app.wrapper.find('output').text()).toBe(String(PAGE_SIZE_MAX + 2));
  });

  test('its key lies under what a sensor change of the plant invalidates, not another plant’s', () => {
    const key = wholeListKey('listSensors', { params: { plantUuid: 'p1' }, query: {} });
    const client = testQueryClient();
    client.setQueryData(key, []);
    const matches = (plantUuid: string) =>
      keysChangedBy('updateSensor', { params: { plantUuid } }).some(
        (queryKey) => client.getQueryCache().findAll({ queryKey }).length > 0,
      );
    expect(matches('p1')).toBe(true);
    expect(matches('p2')).toBe(false);
  });
});

describe('catalogs', () => {
  test('only the named ones are asked; a failed one says why while the others are offered', async () => {
    const Catalogs = probe(() => {
      const catalogs = useCatalogOptions(['deviceTypes', 'vendors'], { retry: false });
      return () =>
        h('p', [
          catalogs.deviceTypes.value.map((type) => type.name).join(', '),
          ` | ${catalogs.error.value}`,
        ]);
    });
    const app = await mountWithApp(Catalogs, {
      routes: {
        listDeviceTypes: page([named('Heat pump')]),
        listVendors: apiError(500, 'Vendors are resting'),
      },
    });
    expect(app.wrapper.text()).toBe('Heat pump | Vendors are resting');
    expect(
      app.calls
        .map((call) => call.route)
        .filter(Boolean)
        .sort(),
    ).toEqual(['listDeviceTypes', 'listVendors']);
  });

  test('a device type changed elsewhere on screen is offered again without a reload', async () => {
    let name = 'Heat pump';
    const Catalogs = probe(() => {
      const catalogs = useCatalogOptions(['deviceTypes']);
      const mutate = useMutationCall();
      return () =>
        h('div', [
          h('p', catalogs.deviceTypes.value.map((type) => type.name).join(', ')),
          h('button', {
            onClick: () =>
              mutate('updateDeviceType', { params: { deviceTypeUuid: 't1' }, body: {} }),
          }),
        ]);
    });
    const app = await mountWithApp(Catalogs, {
      routes: {
        listDeviceTypes: () => page([named(name)]),
        updateDeviceType: () => {
          name = 'Air heat pump';
          return named(name);
        },
      },
    });
    expect(app.wrapper.find('p').text()).toBe('Heat pump');
    await app.wrapper.find('button').trigger('click');
    await app.settle();
    expect(app.wrapper.find('p').text()).toBe('Air heat pump');
  });
});
