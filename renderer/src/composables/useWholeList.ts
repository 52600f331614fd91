import { computed, toValue, type MaybeRefOrGetter } from 'vue';
import { useQuery, useQueryClient } from '@tanstack/vue-query';
import type { RouteId } from '../../../api/routes.ts';
import type { QueryValue, RouteInput } from '../../../api/routeInput.ts';
import { PAGE_SIZE_MAX } from '../../../api/schemas/common.ts';
import { useBridge } from '../bridge.ts';
import { apiQueryKey } from '../queryClient.ts';
import { callRoute } from './useApiQuery.ts';
import { errorMessage } from './useFormErrors.ts';
import type { Page, RowOf } from './useServerTable.ts';

/** At most this many pages are read (10,000 entries): a guard against a server that loops. */
const MAX_PAGES = 50;

/** Reads every page of a list route, in order. */
export async function fetchAllPages<Row>(
  fetchPage: (page: number, size: number) => Promise<Page<Row>>,
): Promise<Row[]> {
  const rows: Row[] = [];
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const answer = await fetchPage(page, PAGE_SIZE_MAX);
    rows.push(...answer.content);
    if (answer.content.length === 0 || page + 1 >= answer.page.totalPages) break;
  }
  return rows;
}

/** A list route's input without its page: what the whole list is asked with. */
export interface WholeListInput {
  params?: Record<string, string>;
  query: Record<string, QueryValue>;
}

/**
 * The cache key of every page of a list route read as one list: under the route's key for that
 * input, so that what a change invalidates (`keysChangedBy`) covers it as it covers the tables.
 */
export function wholeListKey(route: RouteId, input: WholeListInput | null) {
  return [...apiQueryKey(route, input as RouteInput<typeof route> | null), 'every page'];
}

/**
 * A list route read whole, page after page of the API's largest page size (so that a select
 * never misses an entry on a later page), as a query of the shared cache: screens asking the
 * same list share it, a change invalidating the route reads it again. An input of null waits.
 * `error` is the failure's message, else `failureText` (a function is read when the error is
 * shown, so that it says it in the language chosen then). `retry: false` fails at once, for a
 * screen with something else to show meanwhile (a draft's kept copy).
 *
 *   const devices = useWholeList('listDevices', () => ({ params: { plantUuid }, query }), text);
 *   devices.items.value // → every device of the plant, or undefined before the first answer
 */
export function useWholeList<Id extends RouteId>(
  route: Id,
  input: MaybeRefOrGetter<WholeListInput | null>,
  failureText: string | (() => string),
  options: { retry?: false } = {},
) {
  const bridge = useBridge();
  const client = useQueryClient();
  const query = useQuery(
    computed(() => {
      const value = toValue(input);
      return {
        queryKey: wholeListKey(route, value),
        queryFn: ({ signal }: { signal: AbortSignal }) =>
          fetchAllPages(
            (page, size) =>
              callRoute(
                bridge,
                route,
                { ...value!, query: { ...value!.query, page, size } } as unknown as RouteInput<Id>,
                signal,
              ) as Promise<Page<RowOf<Id>>>,
          ),
        enabled: value !== null,
        ...options,
      };
    }),
    client,
  );
  return {
    /** Every row; undefined before the first answer. */
    items: computed(() => query.data.value),
    loading: computed(() => query.isFetching.value),
    error: computed(() => {
      const caught = query.error.value;
      if (!caught) return null;
      return errorMessage(caught, typeof failureText === 'function' ? failureText() : failureText);
    }),
    /** Reads it again (a read already running is joined) and answers the rows. */
    async load(): Promise<RowOf<Id>[] | undefined> {
      return (await query.refetch({ cancelRefetch: false })).data;
    },
  };
}
