import { computed, toValue, type MaybeRefOrGetter } from 'vue';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/vue-query';
import type { RouteId } from '../../../api/routes.ts';
import type { RouteInput, RouteResult } from '../../../api/routeInput.ts';
import { useBridge } from '../bridge.ts';
import type { ApiCallOptions, PlantDeskBridge } from '../../../electron/ipc/contract.ts';
import { invalidateAfter } from '../invalidation.ts';
import { apiQueryKey } from '../queryClient.ts';

let requests = 0;

/**
 * Calls one route; aborting `signal` cancels the request in the host (`api.cancel`), so a query
 * nobody watches any more stops using the connection.
 */
export async function callRoute<Id extends RouteId>(
  bridge: PlantDeskBridge,
  route: Id,
  input: RouteInput<Id>,
  signal: AbortSignal,
): Promise<RouteResult<Id>> {
  const requestId = `query-${++requests}`;
  const cancel = () => void bridge.invoke('api.cancel', requestId).catch(() => {});
  signal.addEventListener('abort', cancel, { once: true });
  try {
    return (await bridge.call(route, input, { requestId })) as RouteResult<Id>;
  } finally {
    signal.removeEventListener('abort', cancel);
  }
}

/**
 * One route's answer from the shared cache (`fetchQuery`), for a query made of several routes: a
 * request for the same route and input already running is joined; otherwise it is asked
 * (staleTime 0: never an old answer). It is not retried here: the query it serves retries.
 */
export function fetchRoute<Id extends RouteId>(
  client: QueryClient,
  bridge: PlantDeskBridge,
  route: Id,
  input: RouteInput<Id>,
): Promise<RouteResult<Id>> {
  return client.fetchQuery({
    queryKey: apiQueryKey(route, input),
    queryFn: ({ signal }) => callRoute(bridge, route, input, signal),
    retry: false,
  });
}

export interface ApiQueryOptions {
  /** False (or an input of null) waits; default true. */
  enabled?: MaybeRefOrGetter<boolean>;
  /** Asks again every so many ms while the window is visible; false (default) does not. */
  refetchInterval?: MaybeRefOrGetter<number | false>;
}

/**
 * One route's answer as a vue-query query, keyed by route and input: screens asking the same
 * thing share one request and one cached answer; a change of input asks for the new one (the
 * old answer cannot overwrite it); leaving the screen cancels what is still running.
 *
 *   const health = useApiQuery('pvHealth', () => ({ params: { plantUuid: props.plantUuid } }));
 *   health.data.value?.status // → 'OK'
 */
export function useApiQuery<Id extends RouteId>(
  route: Id,
  input: MaybeRefOrGetter<RouteInput<Id> | null>,
  options: ApiQueryOptions = {},
) {
  const bridge = useBridge();
  const client = useQueryClient();
  const current = computed(() => toValue(input));
  return useQuery(
    computed(() => {
      const value = current.value;
      return {
        queryKey: apiQueryKey(route, value),
        queryFn: ({ signal }: { signal: AbortSignal }) => callRoute(bridge, route, value!, signal),
        enabled: value !== null && toValue(options.enabled ?? true),
        refetchInterval: toValue(options.refetchInterval ?? false),
      };
    }),
    client,
  );
}

/**
 * Calls for routes that change data: once the server answered, what the change made old in the
 * shared cache is invalidated (`keysChangedBy`), so every table and record on screen showing it
 * reads again by itself; no form reloads a list by hand.
 *
 *   const mutate = useMutationCall();
 *   await mutate('deleteDevice', { params: { plantUuid, deviceUuid } });
 */
export function useMutationCall() {
  const bridge = useBridge();
  const client = useQueryClient();
  return async function mutate<Id extends RouteId>(
    route: Id,
    input: RouteInput<Id>,
    options?: ApiCallOptions,
  ): Promise<RouteResult<Id>> {
    const result = await bridge.call(route, input, options);
    void invalidateAfter(client, route, input as { params?: Record<string, string> });
    return result;
  };
}
