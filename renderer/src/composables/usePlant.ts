import { storeToRefs } from 'pinia';
import { toValue, watch, type MaybeRefOrGetter } from 'vue';
import { usePlantStore } from '../stores/usePlantStore.ts';

export type { Plant, PlantLoadError } from '../stores/usePlantStore.ts';

/**
 * The plant of the open plant pages, loaded when `plantUuid` changes (once: the plant page and
 * its child views share it). `reload()` reads it again from the server.
 */
export function usePlant(plantUuid: MaybeRefOrGetter<string>) {
  const store = usePlantStore();
  const { plant, loading, error, notFound } = storeToRefs(store);
  watch(
    () => toValue(plantUuid),
    (uuid) => {
      if (uuid) void store.load(uuid);
    },
    { immediate: true },
  );
  return {
    plant,
    loading,
    error,
    notFound,
    reload: () => store.load(toValue(plantUuid), { force: true }),
    replace: store.replace,
  };
}
