// @vitest-environment happy-dom
import { afterEach, describe, expect, test, vi } from 'vitest';
import { effectScope } from 'vue';
import { DARK_PALETTE, LIGHT_PALETTE } from '../../../renderer/src/charts/theme.ts';
import { useChartTheme } from '../../../renderer/src/composables/useChartTheme.ts';
import { fakeColorScheme } from './support.ts';

afterEach(() => vi.restoreAllMocks());

describe('useChartTheme', () => {
  test('follows prefers-color-scheme, and switches when the system does', () => {
    const scheme = fakeColorScheme(false);
    const scope = effectScope();
    const theme = scope.run(() => useChartTheme())!;
    expect(window.matchMedia).toHaveBeenCalledWith('(prefers-color-scheme: dark)');
    expect(theme.dark.value).toBe(false);
    expect(theme.palette.value).toBe(LIGHT_PALETTE);
    expect(theme.colorFor('consumption')).toBe(LIGHT_PALETTE.consumption);
    scheme.set(true);
    expect(theme.dark.value).toBe(true);
    expect(theme.palette.value).toBe(DARK_PALETTE);
    expect(theme.colorFor('HEAT_PUMP', 2)).toBe(DARK_PALETTE.extra[2]);
    scope.stop();
    expect(scheme.listeners.size).toBe(0);
  });

  test('dark from the start', () => {
    fakeColorScheme(true);
    const scope = effectScope();
    expect(scope.run(() => useChartTheme())!.palette.value.background).toBe('#18181b');
    scope.stop();
  });
});
