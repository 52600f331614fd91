import { describe, expect, test } from 'vitest';
import { ALERT_RULES, type AlertRule } from '../../../electron/ipc/contract.ts';
import {
  acknowledge,
  advanceAlerts,
  mute,
  NO_ALERTS,
  UnknownAlertError,
  type EnvironmentAlerts,
  type PlantEvaluation,
} from '../../../electron/services/monitor/alertLifecycle.ts';
import { plantNotifications } from '../../../electron/services/monitor/alertNotifications.ts';
import type { Finding } from '../../../electron/services/monitor/alertRules.ts';
import type { HostText, Wording } from '../../../electron/services/hostText.ts';
import type { AppLocale } from '../../../i18n/locales.ts';
import { createTranslator } from '../../../i18n/translator.ts';

const PLANT = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';
const T0 = Date.parse('2026-06-21T10:00:00Z');
const MINUTE = 60_000;
const ALL_RULES = new Set<AlertRule>(ALERT_RULES);

/** Texts as the rules make them: a key and raw figures. */
const status = (name: 'DEGRADED' | 'FAULT'): HostText => ({
  key: 'monitor.pvHealth',
  params: { status: { key: `monitor.healthStatus.${name}` } },
});
const degraded: HostText = {
  key: 'monitor.pvHealthPerformance',
  params: { status: { key: 'monitor.healthStatus.DEGRADED' }, performance: { percent: 0.584 } },
};
const silent: HostText = {
  key: 'monitor.sensorSilent',
  params: {
    sensor: 'Grid meter',
    since: { clock: T0 + 12 * MINUTE, zone: 'Europe/Berlin' },
    age: { duration: 8 * MINUTE },
    interval: { duration: 90_000 },
  },
};
const wording = (locale: AppLocale, now = T0): Wording => ({
  t: createTranslator(locale),
  locale,
  now,
});

const finding = (rule: AlertRule, message: HostText = status('FAULT')): Finding => ({
  rule,
  subjectUuid: rule === 'PV_HEALTH' ? null : 'aaaaaaaa-0000-4000-8000-000000000001',
  subjectName: rule === 'PV_HEALTH' ? null : 'Grid meter',
  severity: rule === 'NO_PRODUCTION' ? 'critical' : 'warning',
  message,
  link: { view: 'dashboard' },
});

const plant = (findings: Finding[], judged = ALL_RULES, plantUuid = PLANT): PlantEvaluation => ({
  plantUuid,
  plantName: plantUuid === PLANT ? 'Berlin Dachhaus' : 'Roma Uffici',
  timezone: 'Europe/Berlin',
  findings,
  judged,
});

function cycle(state: EnvironmentAlerts, now: number, plants: PlantEvaluation[]) {
  return advanceAlerts(state, {
    environmentId: 'local',
    now,
    plants,
    allPlantUuids: new Set([PLANT, OTHER]),
  });
}

describe('delay before opening', () => {
  test('a grid sign contradiction opens after holding 15 minutes, dated from when it was first seen', () => {
    let step = cycle(NO_ALERTS, T0, [plant([finding('GRID_SIGN')])]);
    expect(step.opened).toEqual([]);
    expect(step.state.pending).toHaveLength(1);
    step = cycle(step.state, T0 + 10 * MINUTE, [plant([finding('GRID_SIGN')])]);
    expect(step.opened).toEqual([]);
    step = cycle(step.state, T0 + 15 * MINUTE, [plant([finding('GRID_SIGN', degraded)])]);
    expect(step.opened).toHaveLength(1);
    expect(step.opened[0]).toMatchObject({
      status: 'open',
      since: '2026-06-21T10:00:00.000Z',
      openedAt: '2026-06-21T10:15:00.000Z',
      message: degraded,
    });
    expect(step.state.pending).toEqual([]);
  });

  test('a condition that goes away inside its delay never opens', () => {
    let step = cycle(NO_ALERTS, T0, [plant([finding('GRID_SIGN')])]);
    step = cycle(step.state, T0 + 5 * MINUTE, [plant([])]);
    expect(step.state.pending).toEqual([]);
    step = cycle(step.state, T0 + 20 * MINUTE, [plant([finding('GRID_SIGN')])]);
    expect(step.opened).toEqual([]);
  });

  test('PV health and no production open at once', () => {
    const step = cycle(NO_ALERTS, T0, [plant([finding('PV_HEALTH'), finding('NO_PRODUCTION')])]);
    expect(step.opened.map((alert) => alert.rule).sort()).toEqual(['NO_PRODUCTION', 'PV_HEALTH']);
    expect(step.state.alerts[0]!.rule).toBe('NO_PRODUCTION'); // critical first
  });
});

describe('hysteresis before clearing', () => {
  const opened = () => cycle(NO_ALERTS, T0, [plant([finding('NO_PRODUCTION')])]).state;

  test('clears once, 15 minutes after the condition was last seen', () => {
    let step = cycle(opened(), T0 + 5 * MINUTE, [plant([])]);
    expect(step.resolved).toEqual([]);
    expect(step.state.alerts[0]).toMatchObject({
      status: 'open',
      clearingSince: '2026-06-21T10:05:00.000Z',
    });
    step = cycle(step.state, T0 + 20 * MINUTE, [plant([])]);
    expect(step.resolved).toHaveLength(1);
    expect(step.state.alerts[0]).toMatchObject({
      status: 'resolved',
      resolvedAt: '2026-06-21T10:20:00.000Z',
    });
    expect(step.state.alerts[0]!.history.map((event) => event.kind)).toEqual([
      'opened',
      'resolved',
    ]);
    step = cycle(step.state, T0 + 25 * MINUTE, [plant([])]);
    expect(step.resolved).toEqual([]);
  });

  test('seen again while clearing: stays open, the clock of clearing starts over', () => {
    let step = cycle(opened(), T0 + 5 * MINUTE, [plant([])]);
    step = cycle(step.state, T0 + 10 * MINUTE, [plant([finding('NO_PRODUCTION')])]);
    expect(step.state.alerts[0]!.clearingSince).toBeNull();
    step = cycle(step.state, T0 + 21 * MINUTE, [plant([])]);
    expect(step.resolved).toEqual([]);
  });

  test('a rule the cycle could not judge neither opens nor clears', () => {
    const step = cycle(opened(), T0 + 60 * MINUTE, [plant([], new Set<AlertRule>(['PV_HEALTH']))]);
    expect(step.resolved).toEqual([]);
    expect(step.state.alerts[0]!.clearingSince).toBeNull();
  });

  test('a plant that left the environment resolves its alerts, saying why', () => {
    const step = advanceAlerts(opened(), {
      environmentId: 'local',
      now: T0 + MINUTE,
      plants: [],
      allPlantUuids: new Set([OTHER]),
    });
    expect(step.resolved[0]!.history.at(-1)!.message).toEqual({ key: 'monitor.plantGone' });
  });
});

describe('mutes and acknowledgements', () => {
  test('an alert opened in a maintenance window is listed as muted and notifies nothing', () => {
    const muted = mute(
      NO_ALERTS,
      { plantUuid: PLANT, rule: null, until: '2026-06-21T12:00:00Z', note: 'Inverter swap' },
      'Berlin Dachhaus',
      'manager@plantdesk.test',
    );
    const step = cycle(muted, T0, [
      plant([finding('NO_PRODUCTION')]),
      plant([finding('PV_HEALTH')], ALL_RULES, OTHER),
    ]);
    expect(step.opened.find((alert) => alert.plantUuid === PLANT)!.muted).toBe(true);
    const notifications = plantNotifications('local', step.opened, step.resolved, wording('en'));
    expect(notifications.map((entry) => entry.plantUuid)).toEqual([OTHER]);
    // After the window the mute is gone.
    expect(cycle(step.state, Date.parse('2026-06-21T12:00:01Z'), []).state.mutes).toEqual([]);
  });

  test('a mute of one rule leaves the others', () => {
    const muted = mute(
      NO_ALERTS,
      { plantUuid: PLANT, rule: 'PV_HEALTH', until: '2026-06-22T00:00:00Z' },
      'Berlin Dachhaus',
      'manager@plantdesk.test',
    );
    const step = cycle(muted, T0, [plant([finding('NO_PRODUCTION'), finding('PV_HEALTH')])]);
    expect(Object.fromEntries(step.opened.map((alert) => [alert.rule, alert.muted]))).toEqual({
      NO_PRODUCTION: false,
      PV_HEALTH: true,
    });
  });

  test('acknowledging records who, when and the note in the history', () => {
    const state = cycle(NO_ALERTS, T0, [plant([finding('NO_PRODUCTION')])]).state;
    const id = state.alerts[0]!.id;
    const done = acknowledge(
      state,
      id,
      'manager@plantdesk.test',
      T0 + MINUTE,
      'Installer on the way',
    );
    expect(done.alerts[0]!.acknowledged).toEqual({
      by: 'manager@plantdesk.test',
      at: '2026-06-21T10:01:00.000Z',
      note: 'Installer on the way',
    });
    expect(done.alerts[0]!.history.at(-1)).toMatchObject({
      kind: 'acknowledged',
      note: 'Installer on the way',
    });
    expect(() => acknowledge(state, 'nope', 'x', T0)).toThrow(UnknownAlertError);
  });
});

describe('notifications', () => {
  test('one per plant and cycle: new alerts and cleared ones together, in words of the moment', () => {
    const first = cycle(NO_ALERTS, T0, [
      plant([finding('NO_PRODUCTION', degraded), finding('PV_HEALTH', status('FAULT'))]),
    ]);
    expect(plantNotifications('local', first.opened, first.resolved, wording('en'))).toEqual([
      {
        environmentId: 'local',
        plantUuid: PLANT,
        opened: 2,
        cleared: 0,
        title: 'Berlin Dachhaus: 2 new alerts',
        body:
          'PV health over the last 7 days is DEGRADED: 58% of the expected energy\n' +
          'PV health over the last 7 days is FAULT',
      },
    ]);
    // Production is back and a sensor went silent: the silent sensor waits for its 5-minute
    // delay, no production for its 15-minute hysteresis; both happen in the cycle 20 min later.
    const seen = [finding('PV_HEALTH'), finding('SENSOR_SILENT', silent)];
    const next = cycle(first.state, T0 + 5 * MINUTE, [plant(seen)]);
    expect([next.opened, next.resolved]).toEqual([[], []]);
    const later = cycle(next.state, T0 + 20 * MINUTE, [plant(seen)]);
    const at = T0 + 20 * MINUTE;
    expect(plantNotifications('local', later.opened, later.resolved, wording('en', at))).toEqual([
      {
        environmentId: 'local',
        plantUuid: PLANT,
        opened: 1,
        cleared: 1,
        title: 'Berlin Dachhaus: 1 new alert, 1 cleared',
        body:
          'Grid meter: no reading since 12:12 PM (8 min); it should report every 2 min\n' +
          'Cleared: PV health over the last 7 days is DEGRADED: 58% of the expected energy',
      },
    ]);
    expect(plantNotifications('local', first.opened, [], wording('de'))[0]).toMatchObject({
      title: 'Berlin Dachhaus: 2 neue Alarme',
      body:
        'PV-Zustand der letzten 7 Tage: BEEINTRÄCHTIGT, 58\u00a0% des erwarteten Ertrags\n' +
        'PV-Zustand der letzten 7 Tage: STÖRUNG',
    });
    expect(plantNotifications('local', later.opened, later.resolved, wording('it', at))).toEqual([
      expect.objectContaining({
        title: 'Berlin Dachhaus: 1 nuovo allarme, 1 risolto',
        body:
          'Grid meter: nessuna lettura da 12:12 (8 min); dovrebbe trasmettere ogni 2 min\n' +
          "Risolto: Stato FV degli ultimi 7 giorni: DEGRADATO, 58% dell'energia attesa",
      }),
    ]);
  });
});
