import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import { useQueryClient } from '@tanstack/vue-query';
import type { RouteResult } from '../../../api/routeInput.ts';
import { PlantDeskError } from '../bridge.ts';
import { translate } from '../i18n.ts';
import { useApiQuery } from '../composables/useApiQuery.ts';
import { apiQueryKey } from '../queryClient.ts';

export type Plant = RouteResult<'getPlant'>;

/** Why the open plant could not be shown. */
export interface PlantLoadError {
  /** The plant does not exist, was deleted, or belongs to another organization (404). */
  notFound: boolean;
  message: string;
}

/**
 * The plant whose pages are open (/plants/:plantUuid/…): loaded once by the plant page and read
 * by its child views, the breadcrumb and the forms, so that a rename shows everywhere at once.
 * The plant itself is the `getPlant` query of the shared cache (a list or another screen that
 * read it shows the same answer); the store says which plant is open.
 */
export const usePlantStore = defineStore('plant', () => {
  const client = useQueryClient();
  const plantUuid = ref<string | null>(null);
  const keyOf = (uuid: string) => apiQueryKey('getPlant', { params: { plantUuid: uuid } });

  const query = useApiQuery('getPlant', () =>
    plantUuid.value ? { params: { plantUuid: plantUuid.value } } : null,
  );

  const plant = computed<Plant | null>(() =>
    query.error.value ? null : (query.data.value ?? null),
  );
  const loading = computed(() => query.isFetching.value);
  const error = computed<PlantLoadError | null>(() =>
    query.error.value ? describe(query.error.value) : null,
  );
  const notFound = computed(() => error.value?.notFound === true);

  /** Loads the plant unless it is the one already here (`force` reads it again). */
  async function load(uuid: string, options: { force?: boolean } = {}): Promise<void> {
    const known = plantUuid.value === uuid;
    plantUuid.value = uuid;
    if (known && !options.force) return;
    await client.refetchQueries({ queryKey: keyOf(uuid), exact: true });
  }

  /** After a save: the server's answer replaces what is shown, on every screen. */
  function replace(saved: Plant): void {
    client.setQueryData(keyOf(saved.plantUuid), saved);
    plantUuid.value = saved.plantUuid;
  }

  /** After a delete: no plant is open, and no screen shows the deleted one from the cache. */
  function clear(): void {
    const uuid = plantUuid.value;
    plantUuid.value = null;
    if (uuid) client.removeQueries({ queryKey: keyOf(uuid), exact: true });
  }

  return { plantUuid, plant, loading, error, notFound, load, replace, clear };
});

function describe(caught: unknown): PlantLoadError {
  if (caught instanceof PlantDeskError) {
    // A malformed id in a deep link is a 400 about the path: as absent as an unknown one.
    const notFound =
      caught.status === 404 ||
      (caught.status === 400 && caught.message.includes("path parameter 'plantUuid'"));
    return { notFound, message: caught.message };
  }
  return { notFound: false, message: translate('shell.plantLoadFailed') };
}
