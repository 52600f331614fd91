import type { Translate } from '../../../i18n/translator.ts';
import {
  CSV_DECIMALS,
  csvField,
  csvNumber,
  csvText,
  fileSlug,
} from '../../../server/domain/csv.ts';
import { translate } from '../i18n.ts';

export { CSV_DECIMALS, csvField, csvNumber };
import { bandLabels } from './chartConfig.ts';
import { isoInZone } from './time.ts';
import type { ChartSeries, ExportSeries } from './types.ts';

/**
 * CSV export of a chart (RFC 4180).
 *
 * - Header `timestamp,<label> (<unit>),…`, its words in the user's language (`Zeitstempel`, the
 *   series' names): only the header does; one row per timestamp of any column (the union, in
 *   time order); an empty cell where a column has no point or its value is null.
 * - Timestamps: ISO 8601 in the plant's zone with its offset, written as the API writes them
 *   (`2026-10-25T02:00:00+02:00`, then `2026-10-25T02:00:00+01:00`: the repeated hour of a DST
 *   end stays two distinct rows).
 * - Numbers: the datasets' own values — the numbers the chart plots, in the unit of the header —
 *   rounded to 6 decimals, the precision the server rounds its metrics to, so client-side float
 *   noise (0.1 + 0.2) never shows, and the values equal the API's. Plain decimal notation, `.`
 *   as the separator, no grouping, trailing zeros dropped (`1.5`, `1200`, `0.000001`).
 * - Lines end with CRLF; a field with a comma, a quote, CR or LF is quoted with its quotes
 *   doubled. A header label starting with `=`, `+`, `-`, `@`, tab or CR gets a leading `'` so
 *   a spreadsheet does not run it as a formula (labels can carry user-entered device names).
 */

export const CSV_MIME = 'text/csv;charset=utf-8';

export interface CsvOptions {
  /** Decimals numbers are rounded to (default 6: the server's precision). */
  decimals?: number;
  /** Header of the first column (default `timestamp` in the language of `t`). */
  timestampHeader?: string;
  /** The header's words (default: the app's language). */
  t?: Translate;
}

/** `Consumption (W)`; the label alone when there is no unit. */
export function columnTitle(series: Pick<ExportSeries, 'label' | 'unit'>): string {
  return series.unit ? `${series.label} (${series.unit})` : series.label;
}

/** The CSV text of the datasets, timestamps in `zone` (see the module comment). */
export function toCsv(
  datasets: readonly ExportSeries[],
  zone: string,
  options: CsvOptions = {},
): string {
  const decimals = options.decimals ?? CSV_DECIMALS;
  const columns = datasets.map((series) => {
    const byX = new Map<number, number | null>();
    for (const point of series.points) byX.set(point.x, point.y);
    return byX;
  });
  const instants = [...new Set(columns.flatMap((column) => [...column.keys()]))].sort(
    (a, b) => a - b,
  );
  const timestamp = options.timestampHeader ?? (options.t ?? translate)('charts.csv.timestamp');
  const header = [timestamp, ...datasets.map(columnTitle)].map(csvText).join(',');
  const rows = instants.map((x) =>
    [isoInZone(x, zone), ...columns.map((column) => csvNumber(column.get(x), decimals))].join(','),
  );
  return [header, ...rows].map((line) => `${line}\r\n`).join('');
}

/**
 * The columns a TimeChart exports: each dataset, and for a dataset with an 80 % band its
 * `<label> lower 80 %` and `<label> upper 80 %` columns right after it (named in `t`'s language).
 */
export function chartSeriesToExport(
  datasets: readonly ChartSeries[],
  t: Translate = translate,
): ExportSeries[] {
  return datasets.flatMap((series) => {
    const main: ExportSeries = { label: series.label, unit: series.unit, points: series.points };
    const band = series.band;
    if (!band) return [main];
    const bound = (key: 'lower' | 'upper') =>
      series.points.map((point, index) => ({ x: point.x, y: band[index]?.[key] ?? null }));
    const names = bandLabels(series.label, t);
    return [
      main,
      { label: names.lower, unit: series.unit, points: bound('lower') },
      { label: names.upper, unit: series.unit, points: bound('upper') },
    ];
  });
}

/**
 * A file name from free text: `Demo Home — history` → `demo-home-history`, plus the extension.
 */
export function fileNameOf(base: string, extension: string): string {
  return `${fileSlug(base, 'chart')}.${extension}`;
}

/**
 * The little of the DOM a download needs, typed here so this module also compiles (and its pure
 * functions run) outside a browser, in the unit tests.
 */
interface DownloadLink {
  href: string;
  download: string;
  rel: string;
  style: { display: string };
  click(): void;
  remove(): void;
}
interface DownloadDocument {
  createElement(tag: 'a'): DownloadLink;
  body: { append(node: DownloadLink): void };
}

function documentOf(): DownloadDocument {
  const found = (globalThis as unknown as { document?: DownloadDocument }).document;
  if (!found) throw new Error('Downloads need a browser window');
  return found;
}

/**
 * Saves a URL (blob: or data:) under `name` through an `<a download>`: the browser's download in
 * browser mode, Electron's save dialog on the desktop.
 */
export function downloadDataUrl(name: string, url: string): void {
  const document = documentOf();
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
  }
}

/** Saves text as a file (a blob URL, released once the download has started). */
export function downloadText(name: string, text: string, mime: string = CSV_MIME): void {
  const url = URL.createObjectURL(new Blob([text], { type: mime }));
  try {
    downloadDataUrl(name, url);
  } finally {
    // The download reads the blob asynchronously: release the URL a little later.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}
