import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { RouteId } from '../../../api/routes.ts';
import { useEnvironmentStore } from './useEnvironmentStore.ts';

/**
 * Extension routes the active environment's server does not serve (it answered 404 for the
 * route itself), remembered for the rest of the session so screens stop asking and simply leave
 * out what the route would have shown. Keyed by environment id and address: the Local sandbox
 * restarted elsewhere, or an environment pointed at another server, is asked again.
 */
/**
 * A route, or an extension field of a route's answer: `sensorStatuses.recent` is missing when
 * the server serves sensor-statuses but answers without each sensor's recent readings.
 */
export type ExtensionKey = RouteId | 'sensorStatuses.recent';

export const useExtensionSupportStore = defineStore('extensionSupport', () => {
  const environments = useEnvironmentStore();
  /** `<environment id> <base URL> <route id>` of each route known to be missing. */
  const missing = ref(new Set<string>());

  const keyOf = (route: ExtensionKey) =>
    `${environments.activeId} ${environments.active?.baseUrl ?? ''} ${route}`;

  /** False once the active environment's server answered that it does not serve `route`. */
  function isServed(route: ExtensionKey): boolean {
    return !missing.value.has(keyOf(route));
  }

  function markMissing(route: ExtensionKey): void {
    missing.value.add(keyOf(route));
  }

  return { isServed, markMissing };
});
