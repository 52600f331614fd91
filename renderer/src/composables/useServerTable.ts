import {
  computed,
  onScopeDispose,
  ref,
  shallowRef,
  toValue,
  watch,
  type MaybeRefOrGetter,
  type Ref,
} from 'vue';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/vue-query';
import type { DataTablePageEvent, DataTableSortEvent } from 'primevue/datatable';
import type { RouteId } from '../../../api/routes.ts';
import type { QueryValue, RouteInput, RouteResult } from '../../../api/routeInput.ts';
import { useBridge } from '../bridge.ts';
import { apiQueryKey } from '../queryClient.ts';
import { callRoute } from './useApiQuery.ts';
import { errorMessage } from './useFormErrors.ts';
import { translate } from '../i18n.ts';
import { useConnectivityStore } from '../stores/useConnectivityStore.ts';

/** A page as every list route of the API answers it. */
export interface Page<Row> {
  content: Row[];
  page: { number: number; size: number; totalElements: number; totalPages: number };
}

/** The rows of a list route's page. */
export type RowOf<Id extends RouteId> = RouteResult<Id> extends Page<infer Row> ? Row : never;

export interface ServerTableOptions<Id extends RouteId, Row> {
  /** The list route: what is called, and what the shared cache files its pages under. */
  route: MaybeRefOrGetter<Id>;
  /**
   * The route's input for the list parameters of one page (page, size, sort, search + filters);
   * default `{ query }`. Path parameters go here: `(query) => ({ params: { plantUuid }, query })`.
   */
  input?: (query: Record<string, QueryValue>) => RouteInput<Id>;
  /**
   * Reads a page when more than calling the route is needed (the fleet notes a route the server
   * does not serve); default `callRoute`, which cancels in the host a page left behind.
   */
  read?: (route: Id, input: RouteInput<Id>, signal: AbortSignal) => Promise<Page<RowOf<Id>>>;
  /** The rows shown for the page's rows, when they are not the route's rows themselves. */
  rows?: (content: RowOf<Id>[]) => Row[];
  pageSize?: number;
  sortField?: string;
  sortOrder?: 1 | -1;
  /** Further query parameters (filters); a change reads from the first page. */
  filters?: Ref<Record<string, QueryValue>>;
  /**
   * What the error line says when the failure carries no message of its own; a function (or
   * getter) is read when the line is shown, so that it says it in the language chosen then.
   */
  failureText?: string | (() => string);
  /** Reads the page on screen again every so many ms while the window is visible. */
  refetchInterval?: MaybeRefOrGetter<number | false>;
}

/** What a lazy DataTable reads and drives: `ServerTable.vue` takes one. */
export interface ServerTableModel<Row> {
  /** The page on screen (the one before while the next is read, or after it failed). */
  rows: Readonly<Ref<Row[]>>;
  total: Readonly<Ref<number>>;
  /** Index of the first row of the page on screen (PrimeVue's `first`). */
  first: Ref<number>;
  pageSize: number;
  sortField: Ref<string>;
  sortOrder: Ref<1 | -1>;
  search: Ref<string>;
  searching: Readonly<Ref<boolean>>;
  loading: Readonly<Ref<boolean>>;
  /** Whether a page has come back yet. */
  loaded: Readonly<Ref<boolean>>;
  error: Readonly<Ref<string | null>>;
  load(): Promise<void>;
  onPage(event: DataTablePageEvent): void;
  onSort(event: DataTableSortEvent): void;
}

/**
 * Server-side paging, sorting and searching for a PrimeVue DataTable in lazy mode: the API does
 * the work with its `page`, `size`, `sort` and `search` parameters. Each page is a query of the
 * shared cache keyed by route and input (`apiQueryKey`), so a page asked twice is read once, a
 * page left behind is cancelled and can never overwrite a newer one, and a mutation invalidating
 * the route reads the page on screen again. Between pages, and after a failure, the rows shown
 * before stay; a search waits for typing to pause.
 *
 *   const table = useServerTable({ route: 'listPlants', filters });
 */
export function useServerTable<Id extends RouteId, Row = RowOf<Id>>(
  options: ServerTableOptions<Id, Row>,
): ServerTableModel<Row> {
  const bridge = useBridge();
  const client = useQueryClient();
  const pageSize = options.pageSize ?? 20;
  const first = ref(0);
  const sortField = ref(options.sortField ?? 'name');
  const sortOrder = ref<1 | -1>(options.sortOrder ?? 1);
  const search = ref('');
  /** The search once typing paused: what the server is asked. */
  const searched = ref('');

  const input = computed(() => {
    const query: Record<string, QueryValue> = {
      page: Math.floor(first.value / pageSize),
      size: pageSize,
      sort: `${sortField.value},${sortOrder.value === 1 ? 'asc' : 'desc'}`,
      search: searched.value || undefined,
      ...options.filters?.value,
    };
    return options.input ? options.input(query) : ({ query } as RouteInput<Id>);
  });

  const query = useQuery(
    computed(() => {
      const route = toValue(options.route);
      const value = input.value;
      return {
        queryKey: apiQueryKey(route, value),
        queryFn: ({ signal }: { signal: AbortSignal }) =>
          options.read
            ? options.read(route, value, signal)
            : (callRoute(bridge, route, value, signal) as Promise<Page<RowOf<Id>>>),
        placeholderData: keepPreviousData,
        refetchInterval: toValue(options.refetchInterval ?? false),
      };
    }),
    client,
  );

  // A failed page has no data of its own: the page shown before stays under the error line. A
  // query with nothing to show while it reads (reset for another environment) shows nothing.
  const shown = shallowRef<Page<RowOf<Id>> | undefined>(undefined);
  watch(
    [query.data, query.status],
    ([page, status]) => {
      if (page) shown.value = page;
      else if (status === 'pending') shown.value = undefined;
    },
    { immediate: true },
  );

  const rows = computed<Row[]>(() => {
    const content = shown.value?.content ?? [];
    return options.rows ? options.rows(content) : (content as Row[]);
  });
  const total = computed(() => shown.value?.page.totalElements ?? 0);
  const loading = computed(() => query.isFetching.value);
  const loaded = computed(() => shown.value !== undefined);
  const error = computed(() => {
    const caught = query.error.value;
    if (!caught) return null;
    const failure = options.failureText;
    return errorMessage(
      caught,
      typeof failure === 'function' ? failure() : (failure ?? translate('common.listLoadFailed')),
    );
  });

  /** Reads the page on screen again (a read already running is joined, not restarted). */
  async function load(): Promise<void> {
    await query.refetch({ cancelRefetch: false });
  }

  function onPage(event: DataTablePageEvent): void {
    first.value = event.first;
  }

  function onSort(event: DataTableSortEvent): void {
    if (typeof event.sortField === 'string') sortField.value = event.sortField;
    sortOrder.value = event.sortOrder === -1 ? -1 : 1;
    first.value = 0;
  }

  let searchTimer: ReturnType<typeof setTimeout> | undefined;
  watch(search, () => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(() => {
      first.value = 0;
      searched.value = search.value.trim();
    }, 300);
  });
  onScopeDispose(() => clearTimeout(searchTimer));
  if (options.filters) watch(options.filters, () => (first.value = 0), { deep: true });

  const searching = computed(() => search.value.trim().length > 0);

  // The offline banner's Retry reloads the list on screen rather than only the user.
  onScopeDispose(useConnectivityStore().registerRetry(load));

  return {
    rows,
    total,
    first,
    pageSize,
    sortField,
    sortOrder,
    search,
    searching,
    loading,
    loaded,
    error,
    load,
    onPage,
    onSort,
  };
}
