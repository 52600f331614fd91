import { watch, type WatchStopHandle } from 'vue';
import { notifyManager, QueryClient, type QueryKey } from '@tanstack/vue-query';
import type { RouteId } from '../../api/routes.ts';
import type { RouteInput } from '../../api/routeInput.ts';
import type { ChannelName } from '../../electron/ipc/contract.ts';
import { PlantDeskError } from './bridge.ts';

/**
 * The renderer's one cache of server data, shared by every screen, and the keys it is filed by.
 */

// Query state reaches the screens in a microtask rather than after a `setTimeout(0)`: a page
// whose clock is held (Playwright's page.clock, fake timers in tests) still sees its answers.
notifyManager.setScheduler(queueMicrotask);

/** Two more tries (after 1 s, then 2 s) for a request that did not complete. */
const RETRIES = 2;

/**
 * Worth asking again: the request did not complete (network, deadline). An answer of the server
 * (any status), a refusal of the bridge or a cancellation is what asking again would get too.
 */
export function isTransient(error: unknown): boolean {
  return error instanceof PlantDeskError && (error.kind === 'network' || error.kind === 'timeout');
}

export function createAppQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (failures, error) => failures < RETRIES && isTransient(error),
        // The server is often on the LAN or this machine (the Local sandbox): the browser's
        // idea of "online" does not decide whether it can be reached.
        networkMode: 'always',
        // Back to the window (visible again), data older than its staleTime is asked again.
        refetchOnWindowFocus: true,
        refetchOnReconnect: true,
      },
      mutations: { retry: false, networkMode: 'always' },
    },
  });
}

/**
 * The cache key of one route's answer: `['api', route, input]` (null: an input not known yet).
 * Without `input`, the prefix of every input of that route (to invalidate them all).
 *
 *   apiQueryKey('pvHealth', { params: { plantUuid } }) // → ['api', 'pvHealth', { params: … }]
 */
export function apiQueryKey<Id extends RouteId>(
  route: Id,
  input?: RouteInput<Id> | null,
): QueryKey {
  return input === undefined ? ['api', route] : ['api', route, input];
}

/**
 * The cache key of what a channel of the host answers (not a route of the API), e.g. the alert
 * monitor's state: `['host', channel]`.
 */
export function hostQueryKey(channel: Exclude<ChannelName, 'api.call'>): QueryKey {
  return ['host', channel];
}

/**
 * Another environment (or the same one pointed at another server) is another server's data:
 * every cached answer is dropped and the queries on screen ask the new server.
 *
 *   followEnvironment(client, () => `${environments.activeId} ${environments.active?.baseUrl}`);
 */
export function followEnvironment(client: QueryClient, environment: () => string): WatchStopHandle {
  return watch(environment, () => void client.resetQueries());
}
