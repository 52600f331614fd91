import { computed, onScopeDispose, ref, shallowRef, watch, type Ref } from 'vue';
import type { DataTablePageEvent, DataTableSortEvent } from 'primevue/datatable';
import type { QueryValue } from '../../../api/routeInput.ts';
import { errorMessage } from './useFormErrors.ts';
import { translate } from '../i18n.ts';
import { useConnectivityStore } from '../stores/useConnectivityStore.ts';

/** A page as every list route of the API answers it. */
export interface Page<Row> {
  content: Row[];
  page: { number: number; size: number; totalElements: number; totalPages: number };
}

export interface ServerTableOptions<Row> {
  /** Fetches one page with the API's own list parameters (page, size, sort, search + extras). */
  fetch(query: Record<string, QueryValue>): Promise<Page<Row>>;
  pageSize?: number;
  sortField?: string;
  sortOrder?: 1 | -1;
  /** Further query parameters (filters); a change reloads from the first page. */
  filters?: Ref<Record<string, QueryValue>>;
  /**
   * What the error line says when the failure carries no message of its own; a function is
   * called at the failure, so that it says it in the language chosen then.
   */
  failureText?: string | (() => string);
}

/**
 * Server-side paging, sorting and searching for a PrimeVue DataTable in lazy mode: the API does
 * the work with its `page`, `size`, `sort` and `search` parameters. Only the newest answer is
 * shown, so a slow earlier page never overwrites a newer one; a search waits for typing to pause.
 */
export function useServerTable<Row>(options: ServerTableOptions<Row>) {
  const pageSize = options.pageSize ?? 20;
  const rows = shallowRef<Row[]>([]);
  const total = ref(0);
  const first = ref(0);
  const sortField = ref(options.sortField ?? 'name');
  const sortOrder = ref<1 | -1>(options.sortOrder ?? 1);
  const search = ref('');
  const loading = ref(false);
  const error = ref<string | null>(null);
  const loaded = ref(false);
  let latest = 0;

  async function load(): Promise<void> {
    const request = ++latest;
    loading.value = true;
    error.value = null;
    try {
      const page = await options.fetch({
        page: Math.floor(first.value / pageSize),
        size: pageSize,
        sort: `${sortField.value},${sortOrder.value === 1 ? 'asc' : 'desc'}`,
        search: search.value.trim() || undefined,
        ...options.filters?.value,
      });
      if (request !== latest) return;
      rows.value = page.content;
      total.value = page.page.totalElements;
      loaded.value = true;
    } catch (caught) {
      if (request !== latest) return;
      const failure = options.failureText;
      error.value = errorMessage(
        caught,
        typeof failure === 'function' ? failure() : (failure ?? translate('common.listLoadFailed')),
      );
    } finally {
      if (request === latest) loading.value = false;
    }
  }

  function reloadFromStart(): void {
    first.value = 0;
    void load();
  }

  function onPage(event: DataTablePageEvent): void {
    first.value = event.first;
    void load();
  }

  function onSort(event: DataTableSortEvent): void {
    if (typeof event.sortField === 'string') sortField.value = event.sortField;
    sortOrder.value = event.sortOrder === -1 ? -1 : 1;
    reloadFromStart();
  }

  let searchTimer: ReturnType<typeof setTimeout> | undefined;
  watch(search, () => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(reloadFromStart, 300);
  });
  if (options.filters) watch(options.filters, reloadFromStart, { deep: true });

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
    reloadFromStart,
    onPage,
    onSort,
  };
}
