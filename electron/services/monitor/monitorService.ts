import type {
  AlertNotification,
  AlertRule,
  AlertsState,
  MonitorCycle,
  MonitorSettings,
  MuteInput,
} from '../../ipc/contract.ts';
import { createTranslator } from '../../../i18n/translator.ts';
import type { ApiClient } from '../api/apiClient.ts';
import type { Emit } from '../eventBus.ts';
import { wordsOf, type StoredText, type Wording } from '../hostText.ts';
import type { LanguagePreference } from '../languagePreference.ts';
import { silentLogger, type Logger } from '../logger.ts';
import {
  acknowledge,
  advanceAlerts,
  mute,
  unmute,
  type EnvironmentAlerts,
  type RuleTiming,
  type StoredAlert,
} from './alertLifecycle.ts';
import { plantNotifications } from './alertNotifications.ts';
import { evaluatePlant, judgeableRules } from './alertRules.ts';
import { alertInWords } from './alertWording.ts';
import type { AlertStore } from './alertStore.ts';
import { gatherSnapshots, type SourceKind } from './monitorSources.ts';

/**
 * The monitor: every interval, for every signed-in environment, reads each plant, applies the
 * alert rules and the lifecycle, keeps the result in the data folder and tells the user about
 * new and cleared alerts. A plain module: the session, the store, the clock and the way to
 * notify come in as arguments.
 */

export interface SignedInEnvironment {
  environmentId: string;
  client: ApiClient;
  /** Who acknowledges, mutes: the signed-in user's email. */
  email: string;
}

export interface MonitorDeps {
  store: AlertStore;
  signedIn(): SignedInEnvironment[];
  emit: Emit;
  /** Shows one notification (Electron Notification, or an event to the page in browser mode). */
  notify(notification: AlertNotification): void;
  now(): number;
  log?: Logger;
  /** Delays and hysteresis per rule; default RULE_TIMING. */
  timing?: Record<AlertRule, RuleTiming>;
  /** The language alerts and notifications are worded in; default English. */
  language?: Pick<LanguagePreference, 'translator' | 'effective'>;
}

/** A cycle as kept: its problem in words only when asked. */
type KeptCycle = Omit<MonitorCycle, 'error'> & { error?: StoredText };

function cycleInWords({ error, ...cycle }: KeptCycle, wording: Wording): MonitorCycle {
  return error === undefined ? cycle : { ...cycle, error: wordsOf(error, wording) };
}

const ENGLISH: NonNullable<MonitorDeps['language']> = {
  translator: () => createTranslator('en'),
  effective: () => 'en',
};

export interface Monitor {
  state(environmentId: string): AlertsState;
  acknowledge(environmentId: string, alertId: string, by: string, note?: string): AlertsState;
  mute(environmentId: string, input: MuteInput, by: string): AlertsState;
  unmute(environmentId: string, plantUuid: string, rule: AlertRule | null): AlertsState;
  settings(): MonitorSettings;
  updateSettings(settings: MonitorSettings): void;
  /** One cycle of the environment now (joins the one running). */
  check(environmentId: string): Promise<void>;
  /** The environment's alerts as kept, their messages not yet in words. */
  kept(environmentId: string): readonly StoredAlert[];
  /** Open, unmuted alerts over every environment (the tray's count). */
  openCount(): number;
  /** The environment was removed: its alerts go with it. */
  forget(environmentId: string): void;
  /** The user's language changed: the pages read their alerts again, now in it. */
  languageChanged(): void;
  start(): void;
  dispose(): void;
}

export function createMonitor(deps: MonitorDeps): Monitor {
  const log = deps.log ?? silentLogger;
  const memory = new Map<string, EnvironmentAlerts>();
  const sources = new Map<string, SourceKind>();
  const lastCycles = new Map<string, KeptCycle>();
  const language = deps.language ?? ENGLISH;
  const plantNames = new Map<string, Map<string, string>>();
  const running = new Map<string, Promise<void>>();
  const lastNotified = new Map<string, number>();
  let settings = deps.store.loadSettings();
  let timer: NodeJS.Timeout | undefined;
  let disposed = false;
  const controller = new AbortController();

  const alertsOf = (environmentId: string): EnvironmentAlerts => {
    let alerts = memory.get(environmentId);
    if (!alerts) {
      alerts = deps.store.load(environmentId);
      memory.set(environmentId, alerts);
    }
    return alerts;
  };

  const wording = (): Wording => ({
    t: language.translator(),
    locale: language.effective(),
    now: deps.now(),
  });

  function stateOf(environmentId: string): AlertsState {
    const alerts = alertsOf(environmentId);
    const words = wording();
    const cycle = lastCycles.get(environmentId);
    return {
      environmentId,
      alerts: alerts.alerts.map((alert) => alertInWords(alert, words)),
      mutes: alerts.mutes.filter((entry) => Date.parse(entry.until) > deps.now()),
      settings,
      lastCycle: cycle ? cycleInWords(cycle, words) : null,
    };
  }

  const announceAll = () => {
    for (const environmentId of memory.keys()) {
      deps.emit('alerts.changed', { environmentId, openCount: openIn(environmentId) });
    }
  };

  const openIn = (environmentId: string) =>
    alertsOf(environmentId).alerts.filter((alert) => alert.status === 'open').length;

  function keep(environmentId: string, alerts: EnvironmentAlerts): AlertsState {
    memory.set(environmentId, alerts);
    try {
      deps.store.save(environmentId, alerts);
    } catch (error) {
      log.error('Could not save the alerts', { environmentId, error: String(error) });
    }
    deps.emit('alerts.changed', { environmentId, openCount: openIn(environmentId) });
    return stateOf(environmentId);
  }

  function notify(environmentId: string, notifications: readonly AlertNotification[]) {
    if (!settings.notifications) return;
    const interval = settings.intervalMinutes * 60_000;
    for (const notification of notifications) {
      // At most one per plant per interval: a flapping plant must not ring at every check.
      const key = `${environmentId}|${notification.plantUuid}`;
      const previous = lastNotified.get(key);
      const now = deps.now();
      if (previous !== undefined && now - previous < interval) continue;
      lastNotified.set(key, now);
      try {
        deps.notify(notification);
      } catch (error) {
        log.warn('Could not show a notification', { error: String(error) });
      }
    }
  }

  async function cycle(environmentId: string): Promise<void> {
    const session = deps.signedIn().find((entry) => entry.environmentId === environmentId);
    if (!session) return;
    const started = performance.now();
    const at = deps.now();
    try {
      const gathered = await gatherSnapshots(
        session.client,
        sources.get(environmentId) ?? null,
        controller.signal,
      );
      if (disposed) return;
      sources.set(environmentId, gathered.source);
      plantNames.set(
        environmentId,
        new Map(gathered.snapshots.map((plant) => [plant.plantUuid, plant.name])),
      );
      const now = deps.now();
      const outcome = advanceAlerts(alertsOf(environmentId), {
        environmentId,
        now,
        plants: gathered.snapshots.map((plant) => ({
          plantUuid: plant.plantUuid,
          plantName: plant.name,
          timezone: plant.timezone,
          findings: evaluatePlant(plant, now),
          judged: judgeableRules(plant),
        })),
        allPlantUuids: gathered.complete
          ? new Set(gathered.snapshots.map((plant) => plant.plantUuid))
          : null,
        timing: deps.timing,
      });
      lastCycles.set(environmentId, {
        at: new Date(at).toISOString(),
        plants: gathered.snapshots.length,
        durationMs: Math.round(performance.now() - started),
        source: gathered.source,
        ...(gathered.problems.length > 0 && {
          error: {
            key: 'monitor.cycleProblems',
            plural: gathered.problems.length,
            params: { problems: gathered.problems.slice(0, 3).join('; ') },
          },
        }),
      });
      keep(environmentId, outcome.state);
      notify(
        environmentId,
        plantNotifications(environmentId, outcome.opened, outcome.resolved, wording()),
      );
    } catch (error) {
      if (disposed) return;
      log.warn('Monitor cycle failed', { environmentId, error: String(error) });
      lastCycles.set(environmentId, {
        at: new Date(at).toISOString(),
        plants: 0,
        durationMs: Math.round(performance.now() - started),
        source: sources.get(environmentId) ?? 'extension',
        error: error instanceof Error ? error.message : String(error),
      });
      deps.emit('alerts.changed', { environmentId, openCount: openIn(environmentId) });
    }
  }

  function check(environmentId: string): Promise<void> {
    const current = running.get(environmentId);
    if (current) return current;
    const next = cycle(environmentId).finally(() => running.delete(environmentId));
    running.set(environmentId, next);
    return next;
  }

  function schedule() {
    clearInterval(timer);
    if (disposed) return;
    timer = setInterval(() => {
      for (const { environmentId } of deps.signedIn()) void check(environmentId);
    }, settings.intervalMinutes * 60_000);
    timer.unref();
  }

  return {
    state: stateOf,
    acknowledge(environmentId, alertId, by, note) {
      return keep(
        environmentId,
        acknowledge(alertsOf(environmentId), alertId, by, deps.now(), note),
      );
    },
    mute(environmentId, input, by) {
      const name =
        plantNames.get(environmentId)?.get(input.plantUuid) ??
        alertsOf(environmentId).alerts.find((alert) => alert.plantUuid === input.plantUuid)
          ?.plantName ??
        input.plantUuid;
      return keep(environmentId, mute(alertsOf(environmentId), input, name, by));
    },
    unmute(environmentId, plantUuid, rule) {
      return keep(environmentId, unmute(alertsOf(environmentId), plantUuid, rule));
    },
    settings: () => settings,
    updateSettings(next) {
      const rescheduled = next.intervalMinutes !== settings.intervalMinutes;
      settings = next;
      deps.store.saveSettings(next);
      if (rescheduled && timer) schedule();
      announceAll();
    },
    languageChanged: announceAll,
    check,
    kept: (environmentId) => alertsOf(environmentId).alerts,
    openCount() {
      let count = 0;
      for (const alerts of memory.values()) {
        count += alerts.alerts.filter((alert) => alert.status === 'open' && !alert.muted).length;
      }
      return count;
    },
    forget(environmentId) {
      memory.delete(environmentId);
      sources.delete(environmentId);
      lastCycles.delete(environmentId);
      deps.store.remove(environmentId);
    },
    start() {
      schedule();
      for (const { environmentId } of deps.signedIn()) void check(environmentId);
    },
    dispose() {
      disposed = true;
      clearInterval(timer);
      controller.abort();
    },
  };
}
