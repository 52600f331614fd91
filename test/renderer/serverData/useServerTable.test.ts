// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { defineComponent, h } from 'vue';
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { useMutationCall } from '../../../renderer/src/composables/useApiQuery.ts';
import {
  useServerTable,
  type ServerTableModel,
} from '../../../renderer/src/composables/useServerTable.ts';
import type { Plant } from '../../../api/schemas/plants.ts';
import { failed, holdHostAnswers, ok, type PendingCall } from '../support/heldHost.ts';

/**
 * useServerTable over a fake host whose answers the test releases one by one: a page left
 * behind is cancelled and never shows, the rows shown stay while the next page is read and after
 * it failed, two tables asking the same page share one request, and a change made through
 * `useMutationCall` reads the page on screen again.
 */

let pending: PendingCall[];
let cancelled: string[];
const mounted: VueWrapper[] = [];

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
  ({ pending, cancelled } = holdHostAnswers());
  setActivePinia(createPinia());
});

afterEach(() => {
  for (const wrapper of mounted.splice(0)) wrapper.unmount();
  vi.useRealTimers();
});

/** A page of plants named after the page ("p2-a", "p2-b"), of 100 plants in pages of 2. */
const plantsPage = (number: number) =>
  ok({
    content: ['a', 'b'].map((letter) => ({
      plantUuid: `p${number}-${letter}`,
      name: `p${number}-${letter}`,
    })),
    page: { number, size: 2, totalElements: 100, totalPages: 50 },
  });

/** Shows the table's state as one line: its rows' names, "error: …" and "loading". */
function mountTable() {
  let table!: ServerTableModel<Plant>;
  let mutate!: ReturnType<typeof useMutationCall>;
  const Table = defineComponent({
    setup() {
      table = useServerTable({ route: 'listPlants', pageSize: 2 });
      mutate = useMutationCall();
      return () =>
        h(
          'p',
          [
            table.rows.value.map((row) => row.name).join(' '),
            table.error.value && `error: ${table.error.value}`,
            table.loading.value && 'loading',
          ]
            .filter(Boolean)
            .join(' | '),
        );
    },
  });
  const wrapper = mount(Table, { global: { plugins: [createPinia()] } });
  mounted.push(wrapper);
  return { wrapper, table, mutate: () => mutate };
}

const pageOf = (call: PendingCall) => call.input.query?.page;

/** The table with its first page answered and shown. */
async function mountAtFirstPage() {
  const mounted = mountTable();
  await flushPromises();
  pending[0]!.answer(plantsPage(0));
  await flushPromises();
  return mounted;
}

describe('useServerTable', () => {
  test('reads the first page with the list parameters of the API', async () => {
    const { wrapper } = mountTable();
    await flushPromises();
    expect(pending.map((call) => [call.route, call.input])).toEqual([
      ['listPlants', { query: { page: 0, size: 2, sort: 'name,asc' } }],
    ]);
    pending[0]!.answer(plantsPage(0));
    await flushPromises();
    expect(wrapper.text()).toBe('p0-a p0-b');
  });

  test('a page left behind is cancelled, and its late answer never overwrites the newer page', async () => {
    const { wrapper, table } = await mountAtFirstPage();

    table.onPage({ first: 2 } as never);
    await flushPromises();
    table.onPage({ first: 4 } as never);
    await flushPromises();
    expect(pending.slice(1).map(pageOf)).toEqual([1, 2]);
    // Between pages the rows shown before stay: the table does not flash empty.
    expect(wrapper.text()).toBe('p0-a p0-b | loading');
    expect(cancelled).toEqual([pending[1]!.requestId]);

    pending[2]!.answer(plantsPage(2));
    await flushPromises();
    pending[1]!.answer(plantsPage(1));
    await flushPromises();
    expect(wrapper.text()).toBe('p2-a p2-b');
  });

  test('a failed page shows why and keeps the rows shown before; Retry reads it again', async () => {
    const { wrapper, table } = await mountAtFirstPage();

    table.onPage({ first: 2 } as never);
    await flushPromises();
    pending[1]!.answer(failed({ kind: 'api', status: 500, message: 'Database unavailable' }));
    await flushPromises();
    expect(wrapper.text()).toBe('p0-a p0-b | error: Database unavailable');

    void table.load();
    await flushPromises();
    expect(pending.slice(2).map(pageOf)).toEqual([1]);
    pending[2]!.answer(plantsPage(1));
    await flushPromises();
    expect(wrapper.text()).toBe('p1-a p1-b');
  });

  test('two tables on the same page share one request', async () => {
    const first = mountTable();
    const second = mountTable();
    await flushPromises();
    expect(pending).toHaveLength(1);
    pending[0]!.answer(plantsPage(0));
    await flushPromises();
    expect(first.wrapper.text()).toBe('p0-a p0-b');
    expect(second.wrapper.text()).toBe('p0-a p0-b');
  });

  test('a search waits for typing to pause, then reads from the first page', async () => {
    const { table } = mountTable();
    await flushPromises();
    pending[0]!.answer(plantsPage(0));
    table.onPage({ first: 4 } as never);
    await flushPromises();
    pending[1]!.answer(plantsPage(2));
    table.search.value = 'Hof';
    await flushPromises();
    table.search.value = 'Hof A';
    await vi.advanceTimersByTimeAsync(299);
    expect(pending).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(pending[2]!.input.query).toEqual({
      page: 0,
      size: 2,
      sort: 'name,asc',
      search: 'Hof A',
    });
  });

  test('a change made through useMutationCall reads the page on screen again', async () => {
    const { wrapper, mutate } = await mountAtFirstPage();

    const deleted = mutate()('deletePlant', { params: { plantUuid: 'p0-a' } });
    await flushPromises();
    pending[1]!.answer(ok(undefined));
    await deleted;
    await flushPromises();
    expect(pending.slice(2).map((call) => [call.route, pageOf(call)])).toEqual([['listPlants', 0]]);
    pending[2]!.answer(
      ok({
        content: [{ plantUuid: 'p0-b', name: 'p0-b' }],
        page: { number: 0, size: 2, totalElements: 99, totalPages: 50 },
      }),
    );
    await flushPromises();
    expect(wrapper.text()).toBe('p0-b');
  });
});
