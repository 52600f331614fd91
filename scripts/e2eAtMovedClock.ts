/**
 * `npm run test:e2e:clock`: the end-to-end specs whose screens depend on the time of day or the
 * date, run again with the whole machine's clock moved (libfaketime: the runner, the web host,
 * its Local sandbox and Chromium all see it) to 02:30 in Rome on the day DST ends. The specs pin
 * their own instants (`hostClock`, `page.clock`); this run proves that nothing else in the app or
 * the tests reads the real time: a test that only passes at the hour CI happens to run fails here.
 * Needs Debian's `faketime`, and the build `npm run test:e2e` makes (made here when missing, so
 * that this run says something useful even after an earlier step failed).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** 02:30 CEST, the first of the two 02:30s of 2026-10-25 in Europe/Rome. */
export const MOVED_CLOCK_UTC = '2026-10-25 00:30:00';

/**
 * The specs whose assertions depend on "now": they pin it, and must not depend on the real one.
 * For CI's time budget only the dashboard is repeated here: it reads the date and the time of
 * day in the renderer (today's cards, the plant's zone, night and noon). The analytics specs take
 * every instant from their pinned host and page clocks (their ranges are chosen, not "today"),
 * and the commissioning specs from the Local sandbox's pinned clock.
 */
export const TIME_DEPENDENT_SPECS = ['test/e2e/web/dashboard.spec.ts'];
/**
 * Tests of those specs that read no time at all (an outage and its recovery, on a server of the
 * test's own), left out of the repeat for the same budget.
 */
export const TIME_INDEPENDENT_TESTS = /a stopped server shows each card/;

function refusal(): string | undefined {
  if (spawnSync('sh', ['-c', 'command -v faketime'], { stdio: 'ignore' }).status !== 0) {
    return 'test:e2e:clock needs libfaketime: apt-get install -y --no-install-recommends faketime';
  }
  const absent = TIME_DEPENDENT_SPECS.filter((spec) => !existsSync(spec));
  if (absent.length > 0) return `test:e2e:clock: no such spec: ${absent.join(', ')}`;
  return undefined;
}

const refused = refusal();
if (refused) {
  console.error(refused);
  process.exit(1);
}

if (!existsSync('out/renderer/index.html')) {
  console.error('test:e2e:clock: no build yet; building the app first');
  const built = spawnSync('npx', ['electron-vite', 'build'], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

console.error(`Running the time-dependent end-to-end specs at ${MOVED_CLOCK_UTC} UTC (faketime)`);
const child = spawn(
  'faketime',
  [
    MOVED_CLOCK_UTC,
    'npx',
    'playwright',
    'test',
    ...TIME_DEPENDENT_SPECS,
    '--grep-invert',
    TIME_INDEPENDENT_TESTS.source,
    '--output',
    'test-artifacts/e2e-moved-clock',
  ],
  {
    stdio: 'inherit',
    env: {
      ...process.env,
      // faketime reads the timestamp in the local zone; UTC makes it mean what it says.
      TZ: 'UTC',
      PLANTDESK_E2E_JSON: 'test-artifacts/e2e-moved-clock-results.json',
      PLANTDESK_E2E_HTML: 'test-artifacts/e2e-moved-clock-report',
    },
  },
);
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
