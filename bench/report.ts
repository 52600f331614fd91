import type { BenchResult } from './benchResult.ts';

const COLUMNS = ['benchmark', 'value', 'baseline', 'ratio', 'target', 'result'] as const;

/** The results as a plain-text table, then one line per note (INVALID reasons, remarks). */
export function formatReport(results: readonly BenchResult[]): string {
  const rows = results.map((result) => [
    result.name,
    `${formatNumber(result.value)} ${result.unit}`,
    result.baseline === undefined ? '-' : `${formatNumber(result.baseline)} ${result.unit}`,
    result.ratio === undefined ? '-' : result.ratio.toFixed(2),
    result.target,
    result.outcome,
  ]);
  const widths = COLUMNS.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => row[column]!.length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd();
  const lines = [
    line(COLUMNS),
    line(widths.map((width) => '-'.repeat(width))),
    ...rows.map((row) => line(row)),
  ];
  const notes = results.filter((result) => result.note);
  if (notes.length > 0) lines.push('', ...notes.map((result) => `${result.name}: ${result.note}`));
  return lines.join('\n');
}

/** A one-line verdict, with every MISS and INVALID named so they cannot be overlooked. */
export function formatVerdict(results: readonly BenchResult[]): string {
  const missed = results.filter((result) => result.outcome !== 'PASS');
  if (missed.length === 0) return `All ${results.length} benchmarks met their target.`;
  return [
    `${missed.length} of ${results.length} benchmarks did not meet their target:`,
    ...missed.map((result) => `  ${result.outcome}  ${result.name}  (${result.target})`),
  ].join('\n');
}

function formatNumber(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}
