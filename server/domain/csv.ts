/**
 * RFC 4180 fields, shared by the chart export (renderer) and the reports (renderer and main):
 * machine-friendly numbers (`.` decimals, no grouping) whatever the user's language, so every
 * spreadsheet and script reads them the same way; only the header is translated.
 */

export const CSV_DECIMALS = 6;

/** One RFC 4180 field: quoted when it holds a comma, a quote, CR or LF. */
export function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Text safe from spreadsheet formula injection (labels can carry user-entered names). */
export function csvText(text: string): string {
  return csvField(/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);
}

/** A number rounded to `decimals`, in plain decimal notation; empty for null / NaN. */
export function csvNumber(value: number | null | undefined, decimals = CSV_DECIMALS): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '';
  const fixed = value.toFixed(decimals);
  const trimmed = fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
  return trimmed === '-0' ? '0' : trimmed;
}

/** Lines end with CRLF, the last one too. */
export function csvLines(rows: readonly (readonly string[])[]): string {
  return rows.map((row) => `${row.join(',')}\r\n`).join('');
}

/** A file-name part from free text: `Demo Home — history` → `demo-home-history`. */
export function fileSlug(text: string, fallback: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug || fallback;
}
