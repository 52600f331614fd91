import { shallowRef, ref } from 'vue';
import { translate } from '../i18n.ts';
import type { DraftCatalogs } from './draftContent.ts';
import { useCatalogOptions } from './useCatalogOptions.ts';

/**
 * The catalogs a draft's forms choose from (sensor types, data types, device types, vendors).
 * They live on the server, which a draft is written without: each successful read is kept in
 * the page's localStorage for its environment, and that copy is used while the server cannot
 * be reached. Catalogs are not secret; uuids and names only.
 */

const STORAGE_PREFIX = 'plantdesk.draftCatalogs.';
const EMPTY: DraftCatalogs = { sensorTypes: [], dataTypes: [], deviceTypes: [], vendors: [] };

export interface KeptCatalogs {
  catalogs: DraftCatalogs;
  /** When they were read from the server (ISO 8601). */
  readAt: string;
}

export function readKeptCatalogs(storage: Storage, environmentId: string): KeptCatalogs | null {
  try {
    const text = storage.getItem(STORAGE_PREFIX + environmentId);
    return text === null ? null : (JSON.parse(text) as KeptCatalogs);
  } catch {
    return null;
  }
}

export function keepCatalogs(
  storage: Storage,
  environmentId: string,
  catalogs: DraftCatalogs,
  at: Date,
): void {
  try {
    storage.setItem(
      STORAGE_PREFIX + environmentId,
      JSON.stringify({ catalogs, readAt: at.toISOString() }),
    );
  } catch {
    // A full or missing storage only means no copy for the next time without a connection.
  }
}

export function useDraftCatalogs(environmentId: () => string) {
  // No retries: without the server, the copy kept from an earlier read is shown at once.
  const options = useCatalogOptions(['sensorTypes', 'dataTypes', 'deviceTypes', 'vendors'], {
    retry: false,
  });
  const catalogs = shallowRef<DraftCatalogs>(EMPTY);
  /** Set when the lists shown are the copy kept from an earlier read. */
  const keptAt = ref<string | null>(null);
  const error = ref<string | null>(null);

  async function load(): Promise<void> {
    await options.load();
    if (options.error.value === null) {
      catalogs.value = {
        sensorTypes: options.sensorTypes.value,
        dataTypes: options.dataTypes.value,
        deviceTypes: options.deviceTypes.value,
        vendors: options.vendors.value,
      };
      keptAt.value = null;
      error.value = null;
      keepCatalogs(localStorage, environmentId(), catalogs.value, new Date());
      return;
    }
    const kept = readKeptCatalogs(localStorage, environmentId());
    if (kept) {
      catalogs.value = kept.catalogs;
      keptAt.value = kept.readAt;
      error.value = null;
    } else {
      error.value = translate('drafts.failures.noCatalogCopy', { error: options.error.value });
    }
  }

  return { catalogs, keptAt, error, load };
}
