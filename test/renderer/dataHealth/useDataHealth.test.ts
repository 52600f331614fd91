// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { defineComponent, h, ref } from 'vue';
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { useDataHealth } from '../../../renderer/src/composables/useDataHealth.ts';
import { failed, holdHostAnswers, ok, type HeldHost } from '../support/heldHost.ts';
import { apiError } from '../support/mountWithApp.ts';

/**
 * The data-health map's loading through the shared query cache: the newest plant wins over a
 * slower answer for the one before, whose request is cancelled; a server without the extension is
 * remembered as such, with no error; Retry reads again.
 */

let host: HeldHost;
const mounted: VueWrapper[] = [];

beforeEach(() => {
  setActivePinia(createPinia());
  host = holdHostAnswers();
});
afterEach(() => {
  for (const wrapper of mounted.splice(0)) wrapper.unmount();
});

const answerFor = (plantUuid: string) => ({ plantUuid, sensors: [] });

function mountHealth(plantUuid = ref('p1')) {
  let api!: ReturnType<typeof useDataHealth>;
  const Probe = defineComponent({
    setup() {
      api = useDataHealth(plantUuid);
      return () =>
        h(
          'p',
          api.error.value ??
            (api.served.value ? (api.health.value?.plantUuid ?? '…') : 'not served'),
        );
    },
  });
  const wrapper = mount(Probe);
  mounted.push(wrapper);
  return { wrapper, api: () => api };
}

describe('useDataHealth', () => {
  test('a slower answer for the plant before never shows for the new one', async () => {
    const plantUuid = ref('p1');
    const { wrapper } = mountHealth(plantUuid);
    await flushPromises();
    plantUuid.value = 'p2';
    await flushPromises();
    expect(host.pending.map((call) => call.input.params?.plantUuid)).toEqual(['p1', 'p2']);
    expect(host.cancelled).toEqual([host.pending[0]!.requestId]);
    host.pending[0]!.answer(ok(answerFor('p1')));
    await flushPromises();
    expect(wrapper.text()).toBe('…');
    host.pending[1]!.answer(ok(answerFor('p2')));
    await flushPromises();
    expect(wrapper.text()).toBe('p2');
  });

  test('a server without the extension: not served, no error, not asked again', async () => {
    const { wrapper } = mountHealth();
    await flushPromises();
    host.pending[0]!.answer(
      failed(apiError(404, 'No route for GET /plants/{plantUuid}/data-health')),
    );
    await flushPromises();
    expect(wrapper.text()).toBe('not served');
    mountHealth(ref('p2'));
    await flushPromises();
    expect(host.pending).toHaveLength(1);
  });

  test('a failure shows its message; Retry reads again', async () => {
    const { wrapper, api } = mountHealth();
    await flushPromises();
    host.pending[0]!.answer(failed(apiError(500, 'Database unavailable')));
    await flushPromises();
    expect(wrapper.text()).toBe('Database unavailable');
    const retried = api().reload();
    await flushPromises();
    host.pending[1]!.answer(ok(answerFor('p1')));
    await retried;
    await flushPromises();
    expect(wrapper.text()).toBe('p1');
  });
});
