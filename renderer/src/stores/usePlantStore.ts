import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { RouteResult } from '../../../api/routeInput.ts';
import { PlantDeskError, useBridge } from '../bridge.ts';
import { translate } from '../i18n.ts';

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
 */
export const usePlantStore = defineStore('plant', () => {
  const bridge = useBridge();
  const plantUuid = ref<string | null>(null);
  const plant = ref<Plant | null>(null);
  const loading = ref(false);
  const error = ref<PlantLoadError | null>(null);
  let latest = 0;

  const notFound = computed(() => error.value?.notFound === true);

  /** Loads the plant unless it is the one already here (`force` reads it again). */
  async function load(uuid: string, options: { force?: boolean } = {}): Promise<void> {
    if (!options.force && plantUuid.value === uuid && (plant.value || loading.value)) return;
    const request = ++latest;
    if (plantUuid.value !== uuid) plant.value = null;
    plantUuid.value = uuid;
    loading.value = true;
    error.value = null;
    try {
      const loaded = await bridge.call('getPlant', { params: { plantUuid: uuid } });
      if (request !== latest) return;
      plant.value = loaded;
    } catch (caught) {
      if (request !== latest) return;
      plant.value = null;
      error.value = describe(caught);
    } finally {
      if (request === latest) loading.value = false;
    }
  }

  /** After a save: the server's answer replaces what is shown. */
  function replace(saved: Plant): void {
    if (plantUuid.value !== saved.plantUuid) latest++;
    plantUuid.value = saved.plantUuid;
    plant.value = saved;
    error.value = null;
    loading.value = false;
  }

  /** After a delete, or when leaving the plant's pages. */
  function clear(): void {
    latest++;
    plantUuid.value = null;
    plant.value = null;
    error.value = null;
    loading.value = false;
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
