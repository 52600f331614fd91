import { computed, toValue, type MaybeRefOrGetter } from 'vue';
import { useQuery } from '@tanstack/vue-query';
import type { PlantDataHealth } from '../../../api/schemas/dataHealth.ts';
import { useBridge } from '../bridge.ts';
import { translate } from '../i18n.ts';
import { apiQueryKey } from '../queryClient.ts';
import { useExtensionSupportStore } from '../stores/useExtensionSupportStore.ts';
import { callRoute } from './useApiQuery.ts';
import { failureMessage } from './useFormErrors.ts';
import { isRouteMissing } from './useSensorStatuses.ts';

/**
 * A plant's data-health map (the `data-health` extension), over the server's default range (the
 * last 90 local days ending today), as a query of the shared cache: one request per plant however
 * many views ask, the old plant's answer never shown for the new one, a request left behind
 * cancelled. A server without the extension answers 404 for the route: the environment is
 * remembered as not serving it for the session and `served` turns false, so the screen says so
 * instead of an error.
 */

export const DATA_HEALTH_ROUTE = 'getDataHealth';

export function useDataHealth(plantUuid: MaybeRefOrGetter<string | null | undefined>) {
  const bridge = useBridge();
  const support = useExtensionSupportStore();
  const served = computed(() => support.isServed(DATA_HEALTH_ROUTE));
  const plant = computed(() => toValue(plantUuid) || null);

  const query = useQuery(
    computed(() => {
      const input = { params: { plantUuid: plant.value ?? '' } };
      return {
        queryKey: apiQueryKey(DATA_HEALTH_ROUTE, input),
        queryFn: async ({ signal }: { signal: AbortSignal }): Promise<PlantDataHealth | null> => {
          try {
            return await callRoute(bridge, DATA_HEALTH_ROUTE, input, signal);
          } catch (caught) {
            if (!isRouteMissing(caught)) throw caught;
            support.markMissing(DATA_HEALTH_ROUTE);
            return null;
          }
        },
        enabled: plant.value !== null && served.value,
      };
    }),
  );

  return {
    health: computed(() => query.data.value ?? null),
    error: computed(() =>
      query.error.value
        ? failureMessage(query.error.value, translate('dashboard.loadFailed'))
        : null,
    ),
    loading: query.isFetching,
    served,
    /** Reads again (the screen's Retry). Never rejects. */
    async reload(): Promise<void> {
      await query.refetch();
    },
  };
}
