// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { defineComponent, h, ref } from 'vue';
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import type { SerializedError } from '../../../electron/ipc/contract.ts';
import { PlantDeskError } from '../../../renderer/src/bridge.ts';
import {
  useApiQuery,
  type ApiQueryOptions,
} from '../../../renderer/src/composables/useApiQuery.ts';
import {
  createAppQueryClient,
  followEnvironment,
  isTransient,
} from '../../../renderer/src/queryClient.ts';

import { failed, holdHostAnswers, ok, type PendingCall } from '../support/heldHost.ts';

/**
 * useApiQuery over a fake host whose answers the test releases one by one: shared requests,
 * the newest input wins, retries only for requests that did not complete, cancellation on leave,
 * polling that stops while the window is hidden.
 */

let pending: PendingCall[];
let cancelled: string[];
let visibility: DocumentVisibilityState;
const mounted: VueWrapper[] = [];

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
  visibility = 'visible';
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });
  ({ pending, cancelled } = holdHostAnswers());
});

afterEach(() => {
  for (const wrapper of mounted.splice(0)) wrapper.unmount();
  vi.useRealTimers();
});

/** Shows the plant's name, its error, or "…", for the plant `plantUuid` names. */
function mountPlant(plantUuid = ref('p1'), options: ApiQueryOptions = {}) {
  const Plant = defineComponent({
    setup() {
      const query = useApiQuery(
        'getPlant',
        () => (plantUuid.value ? { params: { plantUuid: plantUuid.value } } : null),
        options,
      );
      return () =>
        h(
          'p',
          query.error.value
            ? `error: ${query.error.value.message}`
            : ((query.data.value as { name?: string } | undefined)?.name ?? '…'),
        );
    },
  });
  const wrapper = mount(Plant);
  mounted.push(wrapper);
  return wrapper;
}

describe('useApiQuery', () => {
  test('two screens asking the same thing share one request and its answer', async () => {
    const first = mountPlant();
    const second = mountPlant();
    await flushPromises();
    expect(pending.map((call) => call.route)).toEqual(['getPlant']);
    pending[0]!.answer(ok({ name: 'Hof Aue' }));
    await flushPromises();
    expect(first.text()).toBe('Hof Aue');
    expect(second.text()).toBe('Hof Aue');
  });

  test('no input, no request; the newest input wins over a slower earlier answer', async () => {
    const plantUuid = ref('');
    const wrapper = mountPlant(plantUuid);
    await flushPromises();
    expect(pending).toHaveLength(0);

    plantUuid.value = 'p1';
    await flushPromises();
    plantUuid.value = 'p2';
    await flushPromises();
    expect(pending.map((call) => call.input.params?.plantUuid)).toEqual(['p1', 'p2']);
    pending[1]!.answer(ok({ name: 'Second' }));
    await flushPromises();
    pending[0]!.answer(ok({ name: 'First' }));
    await flushPromises();
    expect(wrapper.text()).toBe('Second');
  });

  test('a request that did not complete is tried twice more; an answer of the server is not', async () => {
    const wrapper = mountPlant();
    await flushPromises();
    pending[0]!.answer(failed({ kind: 'network', message: 'unreachable' }));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(pending).toHaveLength(2);
    pending[1]!.answer(failed({ kind: 'timeout', message: 'too slow' }));
    await vi.advanceTimersByTimeAsync(2_000);
    expect(pending).toHaveLength(3);
    pending[2]!.answer(failed({ kind: 'network', message: 'still unreachable' }));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(pending).toHaveLength(3);
    expect(wrapper.text()).toBe('error: still unreachable');

    const other = mountPlant(ref('p404'));
    await flushPromises();
    pending[3]!.answer(failed({ kind: 'api', status: 404, message: 'No such plant' }));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(pending).toHaveLength(4);
    expect(other.text()).toBe('error: No such plant');
  });

  test('leaving the screen cancels the request still running', async () => {
    const wrapper = mountPlant();
    await flushPromises();
    const { requestId } = pending[0]!;
    expect(requestId).toBeTruthy();
    mounted.splice(mounted.indexOf(wrapper), 1);
    wrapper.unmount();
    await flushPromises();
    expect(cancelled).toEqual([requestId]);
  });

  test('polls at its interval while visible; hidden stops it, visible again asks at once', async () => {
    mountPlant(ref('p1'), { refetchInterval: 10_000 });
    const answerAll = async () => {
      for (const call of pending.splice(0)) call.answer(ok({ name: 'Hof Aue' }));
      await flushPromises();
    };
    await flushPromises();
    expect(pending).toHaveLength(1);
    await answerAll();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(pending).toHaveLength(1);
    await answerAll();

    visibility = 'hidden';
    window.dispatchEvent(new Event('visibilitychange'));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(pending).toHaveLength(0);

    visibility = 'visible';
    window.dispatchEvent(new Event('visibilitychange'));
    await flushPromises();
    expect(pending).toHaveLength(1);
  });
});

describe('isTransient', () => {
  test('only requests that did not complete', () => {
    const error = (serialized: SerializedError) => new PlantDeskError(serialized);
    expect(isTransient(error({ kind: 'network', message: '' }))).toBe(true);
    expect(isTransient(error({ kind: 'timeout', message: '' }))).toBe(true);
    expect(isTransient(error({ kind: 'api', status: 404, message: '' }))).toBe(false);
    expect(isTransient(error({ kind: 'api', status: 503, message: '' }))).toBe(false);
    expect(isTransient(error({ kind: 'cancelled', message: '' }))).toBe(false);
    expect(isTransient(new Error('boom'))).toBe(false);
  });
});

describe('followEnvironment', () => {
  test('another environment drops every cached answer', async () => {
    const client = createAppQueryClient();
    const environment = ref('local http://127.0.0.1:4000');
    const stop = followEnvironment(client, () => environment.value);
    client.setQueryData(['api', 'getPlant', { params: { plantUuid: 'p1' } }], { name: 'Hof Aue' });
    environment.value = 'local http://127.0.0.1:4000';
    await flushPromises();
    expect(client.getQueryData(['api', 'getPlant', { params: { plantUuid: 'p1' } }])).toEqual({
      name: 'Hof Aue',
    });
    environment.value = 'staging https://staging.example';
    await flushPromises();
    expect(
      client.getQueryData(['api', 'getPlant', { params: { plantUuid: 'p1' } }]),
    ).toBeUndefined();
    stop();
    client.clear();
  });
});
