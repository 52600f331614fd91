/**
 * `node scripts/testCounts.ts <report.json>...`: prints the one closing line CI reads,
 * "N passed, N failed", summed over the runners' JSON reports (vitest's and Playwright's), so the
 * count never depends on how a runner words its summary. A report that is absent (its runner did
 * not get to run) counts nothing; one that cannot be read is an error.
 */
import { existsSync, readFileSync } from 'node:fs';

export interface Counts {
  passed: number;
  failed: number;
}

/**
 * vitest: numPassedTests/numFailedTests, plus each test file that failed before any of its tests
 * ran (an import error hides its tests, and must not read as zero failures); Playwright:
 * stats.expected/unexpected (+ flaky).
 */
export function countsOf(report: unknown): Counts {
  const r = report as {
    numPassedTests?: number;
    numFailedTests?: number;
    testResults?: { status?: string; assertionResults?: unknown[] }[];
    stats?: { expected?: number; unexpected?: number; flaky?: number };
  };
  if (typeof r.numPassedTests === 'number') {
    const brokenFiles = (r.testResults ?? []).filter(
      (file) => file.status === 'failed' && (file.assertionResults ?? []).length === 0,
    ).length;
    return { passed: r.numPassedTests, failed: (r.numFailedTests ?? 0) + brokenFiles };
  }
  if (r.stats && typeof r.stats.expected === 'number') {
    // A flaky test passed on a retry only: it counts as failed, retries must not hide it.
    return { passed: r.stats.expected, failed: (r.stats.unexpected ?? 0) + (r.stats.flaky ?? 0) };
  }
  throw new Error('not a vitest or Playwright JSON report');
}

export function sumCounts(reports: readonly unknown[]): Counts {
  return reports
    .map(countsOf)
    .reduce(
      (sum, counts) => ({ passed: sum.passed + counts.passed, failed: sum.failed + counts.failed }),
      { passed: 0, failed: 0 },
    );
}

if (import.meta.main) {
  const reports = process.argv
    .slice(2)
    .filter((file) => existsSync(file))
    .map((file) => JSON.parse(readFileSync(file, 'utf8')) as unknown);
  const { passed, failed } = sumCounts(reports);
  console.log(`${passed} passed, ${failed} failed`);
}
