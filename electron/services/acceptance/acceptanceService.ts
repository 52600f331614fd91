import { createTranslator } from '../../../i18n/translator.ts';
import type { AcceptanceCommissionedInput, AcceptanceRecheck } from '../../ipc/contract.ts';
import type { ApiClient } from '../api/apiClient.ts';
import type { Emit } from '../eventBus.ts';
import type { LanguagePreference } from '../languagePreference.ts';
import { silentLogger, type Logger } from '../logger.ts';
import type { StoredAlert } from '../monitor/alertLifecycle.ts';
import { judgeAcceptance } from './acceptanceChecks.ts';
import { readAcceptanceInput, type AcceptanceReadings } from './acceptanceSources.ts';
import type { AcceptanceStore } from './acceptanceStore.ts';
import { recheckInWords, type StoredAcceptanceRecheck } from './acceptanceWording.ts';

/**
 * The acceptance re-check: a commissioning's passed verification is recorded with its time, and
 * 24 hours later the plant is judged again (data coverage, production against expectation, open
 * alerts) and the result kept for the report. While the app runs a timer fires when one comes
 * due; at start, those that came due while it was closed run as soon as their environment is
 * signed in. A plain module: the store, the clock, the sessions and the alerts come in.
 */

export const RECHECK_DELAY_MS = 24 * 3_600_000;
/** The timer wakes at least this often: a failed attempt is retried, a clock jump caught up. */
const MAX_WAIT_MS = 15 * 60_000;

export interface AcceptanceDeps {
  store: AcceptanceStore;
  /** The signed-in API client of an environment, or null while it is signed out. */
  clientFor(environmentId: string): ApiClient | null;
  /** The monitor's alerts of a plant, as it keeps them. */
  openAlerts(environmentId: string, plantUuid: string): readonly StoredAlert[];
  emit: Emit;
  now(): number;
  log?: Logger;
  /** The language re-checks are worded in when read; default English. */
  language?: Pick<LanguagePreference, 'translator' | 'effective'>;
  /** Reads the plant's figures (default: from the API; tests give crafted ones). */
  read?(
    client: ApiClient,
    plantUuid: string,
    window: AcceptanceReadings['window'],
  ): Promise<AcceptanceReadings>;
}

export interface AcceptanceService {
  /** Records the commissioning (the first time only) and schedules its re-check. */
  commissioned(environmentId: string, input: AcceptanceCommissionedInput): AcceptanceRecheck;
  get(environmentId: string, plantUuid: string): AcceptanceRecheck | null;
  /** Runs the environment's due re-checks now (at sign-in; joins the run in progress). */
  runDue(environmentId: string): Promise<void>;
  /** The environment was removed: its re-checks go with it. */
  forget(environmentId: string): void;
  /** The user's language changed: the pages read their re-checks again, now in it. */
  languageChanged(): void;
  start(): void;
  dispose(): void;
}

export function createAcceptanceService(deps: AcceptanceDeps): AcceptanceService {
  const log = deps.log ?? silentLogger;
  const controller = new AbortController();
  const read =
    deps.read ??
    ((client: ApiClient, plantUuid: string, window: AcceptanceReadings['window']) =>
      readAcceptanceInput(client, plantUuid, window, controller.signal));
  const memory = new Map<string, StoredAcceptanceRecheck[]>();
  const running = new Map<string, Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  let started = false;
  let disposed = false;

  const inWords = (recheck: StoredAcceptanceRecheck): AcceptanceRecheck => {
    const language = deps.language;
    const locale = language?.effective() ?? 'en';
    const t = language?.translator() ?? createTranslator('en');
    return recheckInWords(recheck, { t, locale, now: deps.now() });
  };

  const rechecksOf = (environmentId: string): StoredAcceptanceRecheck[] => {
    let rechecks = memory.get(environmentId);
    if (!rechecks) {
      rechecks = deps.store.load(environmentId);
      memory.set(environmentId, rechecks);
    }
    return rechecks;
  };

  function keep(environmentId: string, recheck: StoredAcceptanceRecheck): void {
    const rechecks = rechecksOf(environmentId).filter(
      (entry) => entry.plantUuid !== recheck.plantUuid,
    );
    rechecks.push(recheck);
    memory.set(environmentId, rechecks);
    try {
      deps.store.save(environmentId, rechecks);
    } catch (error) {
      log.error('Could not save the acceptance re-checks', { environmentId, error: String(error) });
    }
    deps.emit('acceptance.changed', { environmentId, plantUuid: recheck.plantUuid });
  }

  async function recheck(environmentId: string, entry: StoredAcceptanceRecheck): Promise<void> {
    const client = deps.clientFor(environmentId);
    if (!client) return;
    const window = { startMs: Date.parse(entry.commissionedAt), endMs: Date.parse(entry.dueAt) };
    try {
      const readings = await read(client, entry.plantUuid, window);
      if (disposed) return;
      const result = judgeAcceptance({
        ...readings,
        checkedAtMs: deps.now(),
        openAlerts: deps
          .openAlerts(environmentId, entry.plantUuid)
          .filter((alert) => alert.status === 'open' && alert.plantUuid === entry.plantUuid),
      });
      keep(environmentId, { ...entry, status: 'done', result, lastError: null });
    } catch (error) {
      if (disposed) return;
      log.warn('Acceptance re-check failed', { environmentId, error: String(error) });
      keep(environmentId, {
        ...entry,
        lastError: error instanceof Error ? error.message : String(error),
      });
    }
  }

  function runDue(environmentId: string): Promise<void> {
    const current = running.get(environmentId);
    if (current) return current;
    const now = deps.now();
    const due = rechecksOf(environmentId).filter(
      (entry) => entry.status === 'pending' && Date.parse(entry.dueAt) <= now,
    );
    if (due.length === 0 || !deps.clientFor(environmentId)) return Promise.resolve();
    const next = (async () => {
      for (const entry of due) await recheck(environmentId, entry);
    })().finally(() => running.delete(environmentId));
    running.set(environmentId, next);
    return next;
  }

  const environmentIds = () => new Set([...deps.store.environments(), ...memory.keys()]);

  function arm(): void {
    clearTimeout(timer);
    if (disposed || !started) return;
    const now = deps.now();
    let wait = MAX_WAIT_MS;
    for (const environmentId of environmentIds()) {
      for (const entry of rechecksOf(environmentId)) {
        const until = Date.parse(entry.dueAt) - now;
        // One already due that this tick could not run (signed out, failed) waits for the
        // retry, or a sign-in, rather than spinning.
        if (entry.status === 'pending' && until > 0) wait = Math.min(wait, until);
      }
    }
    timer = setTimeout(tick, wait);
    timer.unref?.();
  }

  function tick(): void {
    void Promise.all([...environmentIds()].map(runDue)).finally(arm);
  }

  return {
    commissioned(environmentId, { plantUuid, plantName }) {
      const existing = rechecksOf(environmentId).find((entry) => entry.plantUuid === plantUuid);
      if (existing) return inWords(existing);
      const now = deps.now();
      const recheck: AcceptanceRecheck = {
        plantUuid,
        plantName,
        commissionedAt: new Date(now).toISOString(),
        dueAt: new Date(now + RECHECK_DELAY_MS).toISOString(),
        status: 'pending',
        result: null,
        lastError: null,
      };
      keep(environmentId, recheck);
      arm();
      return recheck;
    },
    get(environmentId, plantUuid) {
      const found = rechecksOf(environmentId).find((entry) => entry.plantUuid === plantUuid);
      return found ? inWords(found) : null;
    },
    languageChanged() {
      for (const [environmentId, rechecks] of memory) {
        for (const { plantUuid } of rechecks) {
          deps.emit('acceptance.changed', { environmentId, plantUuid });
        }
      }
    },
    runDue,
    forget(environmentId) {
      memory.delete(environmentId);
      deps.store.remove(environmentId);
    },
    start() {
      started = true;
      tick();
    },
    dispose() {
      disposed = true;
      clearTimeout(timer);
      controller.abort();
    },
  };
}
