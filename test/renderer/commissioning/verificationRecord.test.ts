import { flushPromises } from '@vue/test-utils';
import { describe, expect, test, vi } from 'vitest';
import { effectScope, shallowRef } from 'vue';
import type { LiveReadings } from '../../../renderer/src/composables/liveReadings.ts';
import type { CommissioningSnapshot } from '../../../renderer/src/composables/useCommissioning.ts';
import { useVerificationRecord } from '../../../renderer/src/composables/useVerificationRecord.ts';
import type {
  DirectionTestResult,
  WiringCheckResult,
} from '../../../server/domain/wiring/index.ts';

/**
 * The report's live values and wiring checks are those of the moment the verification ran:
 * read once more as it completes, then kept while the live readings move on.
 */

const readings = (loadedAt: number): LiveReadings => ({
  mode: 'extension',
  loadedAt,
  flows: {},
  sensors: [],
});
const snapshot = (): CommissioningSnapshot => ({
  devices: [],
  sensors: [],
  verification: { checks: [], passed: true, checkedAt: '2026-11-20T10:00:00Z' },
});
const check = (finding: string) => ({ finding }) as WiringCheckResult;

function setup() {
  const current = shallowRef<CommissioningSnapshot | null>(null);
  const live = shallowRef<LiveReadings | null>(readings(1));
  const checks = shallowRef<WiringCheckResult[] | null>([check('before')]);
  const readLive = vi.fn(async () => {
    live.value = readings(2);
    checks.value = [check('at verification')];
  });
  const record = effectScope().run(() =>
    useVerificationRecord({ snapshot: current, readLive, live, wiringChecks: checks }),
  )!;
  return { current, live, checks, readLive, record };
}

describe('useVerificationRecord', () => {
  test('captures the live readings and wiring checks read as the verification completes', async () => {
    const { current, live, checks, readLive, record } = setup();
    current.value = snapshot();
    await flushPromises();
    expect(readLive).toHaveBeenCalledTimes(1);
    expect(record.captured.value?.live?.loadedAt).toBe(2);
    expect(record.captured.value?.wiringChecks?.[0]?.finding).toBe('at verification');

    // The live refresh goes on; the report keeps what the verification saw.
    live.value = readings(3);
    checks.value = [check('later')];
    await flushPromises();
    expect(record.captured.value?.live?.loadedAt).toBe(2);
    expect(record.captured.value?.wiringChecks?.[0]?.finding).toBe('at verification');
  });

  test('a stale verification drops the capture and the direction test', async () => {
    const { current, record } = setup();
    current.value = snapshot();
    await flushPromises();
    record.recordDirection([{ name: 'Grid meter' } as DirectionTestResult]);
    current.value = snapshot();
    await flushPromises();
    // Checked again: the direction test still describes the same meters.
    expect(record.directionResults.value).toHaveLength(1);
    current.value = null;
    await flushPromises();
    expect(record.captured.value).toBeNull();
    expect(record.directionResults.value).toBeNull();
  });
});
