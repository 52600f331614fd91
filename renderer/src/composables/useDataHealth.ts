import { computed, ref, shallowRef, toValue, watch, type MaybeRefOrGetter } from 'vue';
import type { PlantDataHealth } from '../../../api/schemas/dataHealth.ts';
import { useBridge } from '../bridge.ts';
import { useExtensionSupportStore } from '../stores/useExtensionSupportStore.ts';
import { translate } from '../i18n.ts';
import { failureMessage } from './useFormErrors.ts';
import { isRouteMissing } from './useSensorStatuses.ts';

/**
 * A plant's data-health map (the `data-health` extension), over the server's default range (the
 * last 90 local days ending today). A server without the extension answers 404 for the route:
 * the environment is remembered as not serving it for the session and `served` turns false, so
 * the screen says so instead of an error. Loaded once per plant and on `reload`.
 */

export const DATA_HEALTH_ROUTE = 'getDataHealth';

export function useDataHealth(plantUuid: MaybeRefOrGetter<string | null | undefined>) {
  const bridge = useBridge();
  const support = useExtensionSupportStore();
  const health = shallowRef<PlantDataHealth | null>(null);
  const error = ref<string | null>(null);
  const loading = ref(false);
  const served = computed(() => support.isServed(DATA_HEALTH_ROUTE));

  async function load(): Promise<void> {
    const plant = toValue(plantUuid);
    if (!plant || !served.value) return;
    loading.value = true;
    try {
      const answer = await bridge.call(DATA_HEALTH_ROUTE, { params: { plantUuid: plant } });
      if (toValue(plantUuid) !== plant) return;
      health.value = answer;
      error.value = null;
    } catch (caught) {
      if (toValue(plantUuid) !== plant) return;
      if (isRouteMissing(caught)) {
        support.markMissing(DATA_HEALTH_ROUTE);
        error.value = null;
        return;
      }
      error.value = failureMessage(caught, translate('dashboard.loadFailed'));
    } finally {
      loading.value = false;
    }
  }

  watch(
    () => toValue(plantUuid),
    () => {
      health.value = null;
      error.value = null;
      void load();
    },
    { immediate: true },
  );

  return { health, error, loading, served, reload: load };
}
