import { describe, expect, it } from 'vitest';
import { countsOf, sumCounts } from '../../scripts/testCounts.ts';

/** The "N passed, N failed" line of .ci/run, from the runners' JSON reports. */

const vitest = {
  numPassedTests: 1990,
  numFailedTests: 2,
  testResults: [
    { status: 'passed', assertionResults: [{}, {}] },
    { status: 'failed', assertionResults: [{}, {}] },
    // A file that failed to import: no test ran, one failure counted.
    { status: 'failed', assertionResults: [] },
  ],
};
const playwright = { stats: { expected: 21, unexpected: 1, flaky: 1, skipped: 1 } };

describe('test counts', () => {
  it('reads vitest’s report, counting a file that never ran its tests as a failure', () => {
    expect(countsOf(vitest)).toEqual({ passed: 1990, failed: 3 });
  });

  it('reads Playwright’s report, counting flaky tests as failed and skipped as neither', () => {
    expect(countsOf(playwright)).toEqual({ passed: 21, failed: 2 });
  });

  it('sums several reports, and refuses what is neither', () => {
    expect(sumCounts([vitest, playwright, playwright])).toEqual({ passed: 2032, failed: 7 });
    expect(sumCounts([])).toEqual({ passed: 0, failed: 0 });
    expect(() => countsOf({ tests: 3 })).toThrow('not a vitest or Playwright JSON report');
  });
});
