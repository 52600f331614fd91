/**
 * The shapes every chart of the renderer works with. Pure types: no Vue, no Chart.js.
 *
 * Points are `{ x, y }` with `x` the instant in epoch milliseconds (the time axis formats it in
 * the plant's zone) and `y` the value in the series' unit, `null` where there is no data (a gap
 * in the line, never a zero).
 */

/** One point of a chart: `x` epoch ms, `y` in the series' unit, `null` = no data (a gap). */
export interface ChartPoint {
  x: number;
  y: number | null;
}

/** A point of a measured series, with the share of its bucket that has data (0..1). */
export interface CoveragePoint extends ChartPoint {
  coverage: number;
}

/** A forecast point: the value and its 80 % interval. */
export interface BandPoint {
  x: number;
  y: number;
  lower: number;
  upper: number;
}

/**
 * What a dataset stands for; picks its colour from the theme. Known roles have their own colour;
 * any other string (a device type code, say) gets one of the palette's extra colours.
 */
export type SeriesRole =
  'consumption' | 'production' | 'forecast' | 'band' | 'actual' | 'previous' | (string & {});

/** One dataset of a TimeChart. */
export interface ChartSeries {
  label: string;
  role: SeriesRole;
  /** kWh, W, %… — shown in the tooltip, the legend of the CSV and the axis. */
  unit: string;
  points: ChartPoint[];
  /**
   * The 80 % interval, index-aligned with `points`: drawn as a filled band behind the line and
   * exported as two more CSV columns ("<label> lower 80 %", "<label> upper 80 %").
   */
  band?: { lower: number; upper: number }[];
  /** Draw on the second (right) y axis, for a series in another unit. */
  secondaryAxis?: boolean;
  /** Stack group when the chart is `stacked` (default: all datasets stack together). */
  stack?: string;
}

/** One column of a CSV export. */
export interface ExportSeries {
  label: string;
  unit: string;
  points: ChartPoint[];
}
