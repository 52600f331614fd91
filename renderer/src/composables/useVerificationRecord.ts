import { shallowRef, toValue, watch, type MaybeRefOrGetter } from 'vue';
import type {
  DirectionTestResult,
  WiringCheckResult,
} from '../../../server/domain/wiring/index.ts';
import type { LiveReadings } from './liveReadings.ts';
import type { CommissioningSnapshot } from './useCommissioning.ts';

/**
 * What the report states about the verification beyond its checks, as it was when the
 * verification ran: each sensor's live readings and the wiring checks on them (read once more
 * as each verification completes, then kept: the report never reads them again), and the
 * direction test's last conclusion (until the plant, its sensors or devices change).
 *
 *   const record = useVerificationRecord({ snapshot, readLive: live.refresh, live, wiringChecks });
 *   record.captured.value?.live.sensors[0] // → the sensor's readings at verification
 */

export interface CapturedVerification {
  live: LiveReadings | null;
  wiringChecks: WiringCheckResult[] | null;
}

export interface VerificationRecordSources {
  snapshot: MaybeRefOrGetter<CommissioningSnapshot | null>;
  /** Reads the live readings now. */
  readLive(): Promise<void>;
  live: MaybeRefOrGetter<LiveReadings | null>;
  wiringChecks: MaybeRefOrGetter<WiringCheckResult[] | null>;
}

export function useVerificationRecord(sources: VerificationRecordSources) {
  const captured = shallowRef<CapturedVerification | null>(null);
  const directionResults = shallowRef<DirectionTestResult[] | null>(null);

  watch(
    () => toValue(sources.snapshot),
    async (snapshot) => {
      captured.value = null;
      // Another plant, or its sensors or devices changed: an earlier direction test is stale.
      if (!snapshot) {
        directionResults.value = null;
        return;
      }
      await sources.readLive();
      // A newer verification started meanwhile: it captures its own.
      if (toValue(sources.snapshot) !== snapshot) return;
      captured.value = {
        live: toValue(sources.live),
        wiringChecks: toValue(sources.wiringChecks),
      };
    },
  );

  return {
    captured,
    directionResults,
    recordDirection(results: DirectionTestResult[]): void {
      directionResults.value = results;
    },
  };
}
