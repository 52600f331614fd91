import { computed, toValue, type ComputedRef, type MaybeRefOrGetter } from 'vue';
import { useQuery, useQueryClient } from '@tanstack/vue-query';
import type { RouteId } from '../../../api/routes.ts';
import type { RouteInput, RouteResult } from '../../../api/routeInput.ts';
import { useBridge } from '../bridge.ts';
import { translate } from '../i18n.ts';
import { fetchRoute } from './useApiQuery.ts';
import { failureMessage } from './useFormErrors.ts';

/**
 * One card's data, a vue-query query keyed by the card and what it shows: a change of input
 * loads the new one (an answer for an older input never shows), and on failure the card shows
 * the error — its message for the card, the error itself for callers that read more (the point
 * cap of a 422).
 */
export interface AnalyticsLoader<T> {
  data: ComputedRef<T | null>;
  loading: ComputedRef<boolean>;
  /** The message to show, or null. */
  error: ComputedRef<string | null>;
  /** What the load threw, or null. */
  failure: ComputedRef<unknown>;
  /** When the data shown was loaded (epoch ms). */
  updatedAt: ComputedRef<number | null>;
  /** Loads again (the card's Retry). Never rejects. */
  run(): Promise<void>;
}

/** Calls routes for a loader: identical requests running at the same time are shared. */
export type RouteCaller = <Id extends RouteId>(
  route: Id,
  input: RouteInput<Id>,
) => Promise<RouteResult<Id>>;

/** A tab's input: the plant and the choices, null until they are known. */
export function plantChoice<C>(
  plantUuid: MaybeRefOrGetter<string>,
  choice: MaybeRefOrGetter<C | null>,
): () => { plantUuid: string; choice: C } | null {
  return () => {
    const chosen = toValue(choice);
    return chosen ? { plantUuid: toValue(plantUuid), choice: chosen } : null;
  };
}

/**
 * `name` names the card (`['history', 'production']`); `input` is what it shows (null: not
 * known yet, nothing is asked); `load` reads it.
 */
export function useAnalyticsLoader<I, T>(
  name: readonly string[],
  input: MaybeRefOrGetter<I | null>,
  load: (input: I, call: RouteCaller) => Promise<T>,
  options: { fallback?: string; now?: () => number } = {},
): AnalyticsLoader<T> {
  const bridge = useBridge();
  const client = useQueryClient();
  const now = options.now ?? Date.now;
  const call: RouteCaller = (route, routeInput) => fetchRoute(client, bridge, route, routeInput);
  const query = useQuery(
    computed(() => {
      const current = toValue(input);
      return {
        queryKey: ['analytics', ...name, current],
        queryFn: async () => ({ value: await load(current!, call), loadedAt: now() }),
        enabled: current !== null,
      };
    }),
    client,
  );
  // A failed load shows its error, not the answer of an earlier one.
  const shown = computed(() => (query.error.value ? null : (query.data.value ?? null)));
  return {
    data: computed(() => shown.value?.value ?? null),
    loading: computed(() => query.isFetching.value),
    error: computed(() =>
      query.error.value
        ? failureMessage(query.error.value, options.fallback ?? translate('analytics.loadFailed'))
        : null,
    ),
    failure: computed(() => query.error.value ?? null),
    updatedAt: computed(() => shown.value?.loadedAt ?? null),
    async run() {
      await query.refetch();
    },
  };
}
