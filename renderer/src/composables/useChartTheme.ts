import { computed, getCurrentScope, onScopeDispose, readonly, ref, type Ref } from 'vue';
import { colorForRole, paletteFor, type ChartPalette } from '../charts/theme.ts';
import type { SeriesRole } from '../charts/types.ts';

export const DARK_QUERY = '(prefers-color-scheme: dark)';

/**
 * The chart theme, light or dark as the system is set — the same media query PrimeVue's
 * `darkModeSelector: 'system'` follows, so charts and the rest of the screen always agree.
 * Reactive: when the system switches, `dark` and `palette` change and charts built from them
 * re-render.
 *
 *   const { dark, palette, colorFor } = useChartTheme();
 */
export function useChartTheme(): {
  dark: Readonly<Ref<boolean>>;
  palette: Readonly<Ref<ChartPalette>>;
  colorFor(role: SeriesRole, index?: number): string;
} {
  const media =
    typeof window !== 'undefined' && typeof window.matchMedia === 'function'
      ? window.matchMedia(DARK_QUERY)
      : null;
  const dark = ref(media?.matches ?? false);
  if (media) {
    const onChange = (event: MediaQueryListEvent) => {
      dark.value = event.matches;
    };
    media.addEventListener('change', onChange);
    if (getCurrentScope()) onScopeDispose(() => media.removeEventListener('change', onChange));
  }
  const palette = computed(() => paletteFor(dark.value));
  return {
    dark: readonly(dark),
    palette,
    colorFor: (role, index) => colorForRole(palette.value, role, index),
  };
}
