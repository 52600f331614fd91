import { ref, watch } from 'vue';
import type { DashboardCard } from '../../composables/useDashboard.ts';

/**
 * Whether a card's chart has drawn its first frame (TimeChart's `rendered`), so the card reads
 * `loading` until its chart is really on screen: the dashboard-ready benchmark and the tests
 * wait on `data-state="ready"`. An error replaces the chart (ChartCard shows the error instead),
 * so the next chart must draw again.
 */
export function useDrawn(card: () => DashboardCard<unknown>) {
  const drawn = ref(false);
  watch(
    () => card().error,
    (error) => {
      if (error) drawn.value = false;
    },
  );
  /** The `loading` a ChartCard gets: loading, not loaded yet, or loaded but not drawn. */
  function cardLoading(): boolean {
    const current = card();
    if (current.loading) return true;
    if (current.error) return false;
    return current.updatedAt === null || !drawn.value;
  }
  return { drawn, cardLoading, onRendered: () => (drawn.value = true) };
}
