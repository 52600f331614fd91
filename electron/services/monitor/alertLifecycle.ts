import type { Alert, AlertEvent, AlertMute, AlertRule, MuteInput } from '../../ipc/contract.ts';
import type { StoredText } from '../hostText.ts';
import type { Finding } from './alertRules.ts';

/**
 * Noise control, as pure functions over the alerts of one environment: a condition must hold
 * for its rule's delay before it opens, and be gone for its hysteresis before it clears; a
 * muted plant or rule still lists its alerts but raises no notification; an acknowledgement is
 * kept in the alert's history. The monitor service persists what these return.
 */

export interface RuleTiming {
  /** How long a condition must hold before it opens. */
  openAfterMs: number;
  /** How long it must be gone before the alert clears. */
  clearAfterMs: number;
}

const MINUTE = 60_000;
export const RULE_TIMING: Record<AlertRule, RuleTiming> = {
  // Freshness already waits 15 minutes before SILENT; a short delay rides out one late batch.
  SENSOR_SILENT: { openAfterMs: 5 * MINUTE, clearAfterMs: 10 * MINUTE },
  // Judged over 7 days: it changes once a day, so it opens at once and clears at once.
  PV_HEALTH: { openAfterMs: 0, clearAfterMs: 0 },
  // The rule itself waits for an hour of daylight.
  NO_PRODUCTION: { openAfterMs: 0, clearAfterMs: 15 * MINUTE },
  // Single readings of meters that report at different moments: hold for a quarter-hour.
  ABOVE_CLEAR_SKY: { openAfterMs: 15 * MINUTE, clearAfterMs: 30 * MINUTE },
  GRID_SIGN: { openAfterMs: 15 * MINUTE, clearAfterMs: 30 * MINUTE },
  METER_UNITS: { openAfterMs: 15 * MINUTE, clearAfterMs: 30 * MINUTE },
  SOC_STUCK: { openAfterMs: 0, clearAfterMs: 60 * MINUTE },
};
/** Tests and demos that cannot wait: every condition opens and clears at once. */
export const IMMEDIATE_TIMING: Record<AlertRule, RuleTiming> = Object.fromEntries(
  Object.keys(RULE_TIMING).map((rule) => [rule, { openAfterMs: 0, clearAfterMs: 0 }]),
) as Record<AlertRule, RuleTiming>;

/**
 * An alert as the monitor keeps it: its messages as key and figures, put into words when read
 * (monitorService's `state`); files from before the languages hold English strings, read as is.
 */
export type StoredAlertEvent = Omit<AlertEvent, 'message'> & { message?: StoredText };
export type StoredAlert = Omit<Alert, 'message' | 'history'> & {
  message: StoredText;
  history: StoredAlertEvent[];
};

/** Resolved alerts kept per environment, newest first. */
export const RESOLVED_KEPT = 500;

/** A condition seen, still inside its rule's delay. */
export interface PendingCondition {
  key: string;
  since: string;
}

export interface EnvironmentAlerts {
  alerts: StoredAlert[];
  pending: PendingCondition[];
  mutes: AlertMute[];
}

export const NO_ALERTS: EnvironmentAlerts = { alerts: [], pending: [], mutes: [] };

/** What one cycle learned about one plant. */
export interface PlantEvaluation {
  plantUuid: string;
  plantName: string;
  timezone: string;
  findings: readonly Finding[];
  /** Rules the cycle could judge: the others neither open nor clear. */
  judged: ReadonlySet<AlertRule>;
}

export interface CycleInput {
  environmentId: string;
  now: number;
  plants: readonly PlantEvaluation[];
  /** Every plant of the environment, when the cycle read the whole list; alerts of others clear. */
  allPlantUuids: ReadonlySet<string> | null;
  timing?: Record<AlertRule, RuleTiming>;
}

export interface CycleOutcome {
  state: EnvironmentAlerts;
  opened: StoredAlert[];
  resolved: StoredAlert[];
}

export const conditionKey = (plantUuid: string, rule: AlertRule, subjectUuid: string | null) =>
  `${plantUuid}|${rule}|${subjectUuid ?? ''}`;
const keyOf = (alert: StoredAlert) => conditionKey(alert.plantUuid, alert.rule, alert.subjectUuid);
const iso = (ms: number) => new Date(ms).toISOString();

export function isMuted(
  mutes: readonly AlertMute[],
  plantUuid: string,
  rule: AlertRule,
  now: number,
): boolean {
  return mutes.some(
    (mute) =>
      mute.plantUuid === plantUuid &&
      (mute.rule === null || mute.rule === rule) &&
      Date.parse(mute.until) > now,
  );
}

function resolve(alert: StoredAlert, now: number, why?: StoredText): StoredAlert {
  return {
    ...alert,
    status: 'resolved',
    resolvedAt: iso(now),
    clearingSince: null,
    history: [...alert.history, { at: iso(now), kind: 'resolved', ...(why && { message: why }) }],
  };
}

/** One monitor cycle: conditions open after their delay, alerts clear after their hysteresis. */
export function advanceAlerts(previous: EnvironmentAlerts, input: CycleInput): CycleOutcome {
  const { now } = input;
  const timing = input.timing ?? RULE_TIMING;
  const mutes = previous.mutes.filter((mute) => Date.parse(mute.until) > now);
  const openByKey = new Map(
    previous.alerts
      .filter((alert) => alert.status === 'open')
      .map((alert) => [keyOf(alert), alert]),
  );
  const pending = new Map(previous.pending.map((condition) => [condition.key, condition]));
  const opened: StoredAlert[] = [];
  const resolved: StoredAlert[] = [];
  const changed = new Map<string, StoredAlert>();

  for (const plant of input.plants) {
    const seen = new Set<string>();
    for (const finding of plant.findings) {
      const key = conditionKey(plant.plantUuid, finding.rule, finding.subjectUuid);
      seen.add(key);
      const open = openByKey.get(key);
      if (open) {
        changed.set(key, {
          ...open,
          plantName: plant.plantName,
          severity: finding.severity,
          message: finding.message,
          link: finding.link,
          lastSeenAt: iso(now),
          clearingSince: null,
        });
        continue;
      }
      const since = pending.get(key)?.since ?? iso(now);
      if (now - Date.parse(since) < timing[finding.rule].openAfterMs) {
        pending.set(key, { key, since });
        continue;
      }
      pending.delete(key);
      const alert: StoredAlert = {
        id: `${input.environmentId}|${key}|${since}`,
        environmentId: input.environmentId,
        plantUuid: plant.plantUuid,
        plantName: plant.plantName,
        timezone: plant.timezone,
        rule: finding.rule,
        subjectUuid: finding.subjectUuid,
        subjectName: finding.subjectName,
        severity: finding.severity,
        message: finding.message,
        since,
        openedAt: iso(now),
        lastSeenAt: iso(now),
        clearingSince: null,
        status: 'open',
        resolvedAt: null,
        acknowledged: null,
        muted: isMuted(mutes, plant.plantUuid, finding.rule, now),
        link: finding.link,
        history: [{ at: iso(now), kind: 'opened', message: finding.message }],
      };
      changed.set(key, alert);
      opened.push(alert);
    }
    for (const [key, condition] of pending) {
      const [plantUuid, rule] = key.split('|') as [string, AlertRule];
      if (plantUuid === plant.plantUuid && plant.judged.has(rule) && !seen.has(key)) {
        pending.delete(condition.key);
      }
    }
    for (const [key, alert] of openByKey) {
      if (alert.plantUuid !== plant.plantUuid || seen.has(key) || !plant.judged.has(alert.rule)) {
        continue;
      }
      const clearingSince = alert.clearingSince ?? iso(now);
      if (now - Date.parse(clearingSince) >= timing[alert.rule].clearAfterMs) {
        const done = resolve(alert, now);
        changed.set(key, done);
        resolved.push(done);
      } else {
        changed.set(key, { ...alert, clearingSince });
      }
    }
  }

  // A plant that left the environment takes its alerts with it.
  if (input.allPlantUuids) {
    for (const [key, alert] of openByKey) {
      if (!input.allPlantUuids.has(alert.plantUuid) && !changed.has(key)) {
        const done = resolve(alert, now, { key: 'monitor.plantGone' });
        changed.set(key, done);
        resolved.push(done);
      }
    }
    for (const key of pending.keys()) {
      if (!input.allPlantUuids.has(key.split('|')[0]!)) pending.delete(key);
    }
  }

  const untouched = previous.alerts.filter(
    (alert) => !(alert.status === 'open' && changed.has(keyOf(alert))),
  );
  return {
    state: {
      alerts: ordered([...changed.values(), ...untouched]),
      pending: [...pending.values()],
      mutes,
    },
    opened,
    resolved,
  };
}

/** Open alerts (most severe, then newest first), then resolved ones, newest first, capped. */
export function ordered(alerts: readonly StoredAlert[]): StoredAlert[] {
  const open = alerts
    .filter((alert) => alert.status === 'open')
    .sort(
      (a, b) =>
        Number(b.severity === 'critical') - Number(a.severity === 'critical') ||
        b.openedAt.localeCompare(a.openedAt),
    );
  const resolved = alerts
    .filter((alert) => alert.status === 'resolved')
    .sort((a, b) => (b.resolvedAt ?? '').localeCompare(a.resolvedAt ?? ''))
    .slice(0, RESOLVED_KEPT);
  return [...open, ...resolved];
}

export class UnknownAlertError extends Error {}

export function acknowledge(
  state: EnvironmentAlerts,
  alertId: string,
  by: string,
  now: number,
  note?: string,
): EnvironmentAlerts {
  const target = state.alerts.find((alert) => alert.id === alertId);
  if (!target) throw new UnknownAlertError(`No alert ${alertId}`);
  const acknowledged = { by, at: iso(now), ...(note && { note }) };
  return {
    ...state,
    alerts: state.alerts.map((alert) =>
      alert.id === alertId
        ? {
            ...alert,
            acknowledged,
            history: [
              ...alert.history,
              { at: acknowledged.at, kind: 'acknowledged', by, ...(note && { note }) },
            ],
          }
        : alert,
    ),
  };
}

/** Adds (or replaces) a maintenance window for the plant or one of its rules. */
export function mute(
  state: EnvironmentAlerts,
  input: MuteInput,
  plantName: string,
  by: string,
): EnvironmentAlerts {
  const others = state.mutes.filter(
    (entry) => !(entry.plantUuid === input.plantUuid && entry.rule === input.rule),
  );
  const entry: AlertMute = {
    plantUuid: input.plantUuid,
    plantName,
    rule: input.rule,
    until: new Date(input.until).toISOString(),
    by,
    ...(input.note && { note: input.note }),
  };
  return { ...state, mutes: [...others, entry] };
}

export function unmute(
  state: EnvironmentAlerts,
  plantUuid: string,
  rule: AlertRule | null,
): EnvironmentAlerts {
  return {
    ...state,
    mutes: state.mutes.filter((entry) => !(entry.plantUuid === plantUuid && entry.rule === rule)),
  };
}
