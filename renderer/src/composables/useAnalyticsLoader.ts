import { ref, shallowRef, type Ref, type ShallowRef } from 'vue';
import { PlantDeskError } from '../bridge.ts';
import { translate } from '../i18n.ts';

/**
 * One card's data: loads with `run()`, keeps the latest answer only (a slower earlier answer
 * never overwrites a newer one), and on failure keeps the error — its message for the card, the
 * error itself for callers that read more (the point cap of a 422).
 */
export interface AnalyticsLoader<T> {
  data: ShallowRef<T | null>;
  loading: Ref<boolean>;
  /** The message to show, or null. */
  error: Ref<string | null>;
  /** What the load threw, or null. */
  failure: ShallowRef<unknown>;
  /** When the data shown was loaded (epoch ms). */
  updatedAt: Ref<number | null>;
  run(): Promise<void>;
}

export function messageOf(caught: unknown, fallback = translate('analytics.loadFailed')): string {
  if (caught instanceof PlantDeskError) return caught.message;
  if (caught instanceof Error && caught.message) return caught.message;
  return fallback;
}

export function useAnalyticsLoader<T>(
  load: () => Promise<T>,
  options: { fallback?: string; now?: () => number } = {},
): AnalyticsLoader<T> {
  const data = shallowRef<T | null>(null);
  const loading = ref(false);
  const error = ref<string | null>(null);
  const failure = shallowRef<unknown>(null);
  const updatedAt = ref<number | null>(null);
  const now = options.now ?? Date.now;
  let latest = 0;

  async function run(): Promise<void> {
    const request = ++latest;
    loading.value = true;
    try {
      const value = await load();
      if (request !== latest) return;
      data.value = value;
      error.value = null;
      failure.value = null;
      updatedAt.value = now();
    } catch (caught) {
      if (request !== latest) return;
      data.value = null;
      updatedAt.value = null;
      failure.value = caught;
      error.value = messageOf(caught, options.fallback);
    } finally {
      if (request === latest) loading.value = false;
    }
  }

  return { data, loading, error, failure, updatedAt, run };
}
