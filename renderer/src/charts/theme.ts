import type { SeriesRole } from './types.ts';

/**
 * Chart colours for the light and dark themes (pure: useChartTheme picks one reactively).
 * Consumption red, production green, forecast blue with its 80 % band in the same blue, the
 * actual values overlaid on a forecast in the text colour, the previous period grey (dashed).
 * Other roles (device types of a stacked forecast) take the `extra` colours in turn
 * (Okabe–Ito, readable by colour-blind users).
 */
export interface ChartPalette {
  dark: boolean;
  consumption: string;
  production: string;
  forecast: string;
  band: string;
  actual: string;
  previous: string;
  grid: string;
  text: string;
  mutedText: string;
  /** Chart area and exported PNG background. */
  background: string;
  tooltipBackground: string;
  tooltipText: string;
  extra: readonly string[];
}

export const LIGHT_PALETTE: ChartPalette = {
  dark: false,
  consumption: '#dc2626',
  production: '#16a34a',
  forecast: '#2563eb',
  band: 'rgba(37, 99, 235, 0.18)',
  actual: '#111827',
  previous: '#9ca3af',
  grid: 'rgba(15, 23, 42, 0.08)',
  text: '#334155',
  mutedText: '#64748b',
  background: '#ffffff',
  tooltipBackground: 'rgba(15, 23, 42, 0.92)',
  tooltipText: '#f8fafc',
  extra: ['#0072b2', '#e69f00', '#009e73', '#cc79a7', '#d55e00', '#56b4e9', '#8c6d31', '#6b7280'],
};

export const DARK_PALETTE: ChartPalette = {
  dark: true,
  consumption: '#f87171',
  production: '#4ade80',
  forecast: '#60a5fa',
  band: 'rgba(96, 165, 250, 0.25)',
  actual: '#f3f4f6',
  previous: '#6b7280',
  grid: 'rgba(248, 250, 252, 0.12)',
  text: '#cbd5e1',
  mutedText: '#94a3b8',
  // PrimeVue Aura's dark content background (surface 900).
  background: '#18181b',
  tooltipBackground: 'rgba(248, 250, 252, 0.95)',
  tooltipText: '#0f172a',
  extra: ['#56b4e9', '#f0b429', '#34d399', '#f0a3d0', '#fb923c', '#93c5fd', '#d4b483', '#9ca3af'],
};

export function paletteFor(dark: boolean): ChartPalette {
  return dark ? DARK_PALETTE : LIGHT_PALETTE;
}

export const NAMED_ROLES = [
  'consumption',
  'production',
  'forecast',
  'band',
  'actual',
  'previous',
] as const;
type NamedRole = (typeof NAMED_ROLES)[number];

/**
 * The colour of a dataset: its role's, or for any other role the `index`-th extra colour (pass
 * the dataset's position among the datasets without a named role, so stacked device types
 * differ).
 */
export function colorForRole(palette: ChartPalette, role: SeriesRole, index = 0): string {
  if ((NAMED_ROLES as readonly string[]).includes(role)) return palette[role as NamedRole];
  return palette.extra[index % palette.extra.length]!;
}

/** `#2563eb` / `rgb(…)` with an alpha, for fills (bars, the band under a line). */
export function withAlpha(color: string, alpha: number): string {
  const hex = /^#([0-9a-f]{6})$/i.exec(color);
  if (hex) {
    const value = Number.parseInt(hex[1]!, 16);
    return `rgba(${(value >> 16) & 255}, ${(value >> 8) & 255}, ${value & 255}, ${alpha})`;
  }
  const rgb = /^rgba?\(\s*([\d.]+)\s*,\s*([\d.]+)\s*,\s*([\d.]+)/i.exec(color);
  return rgb ? `rgba(${rgb[1]}, ${rgb[2]}, ${rgb[3]}, ${alpha})` : color;
}
