import { describe, expect, test } from 'vitest';
import type { Events } from '../../../electron/ipc/contract.ts';
import type { StoredAlert } from '../../../electron/services/monitor/alertLifecycle.ts';
import { DEFAULT_MONITOR_SETTINGS } from '../../../electron/services/monitor/alertStore.ts';
import { createMonitor } from '../../../electron/services/monitor/monitorService.ts';
import type { AppLocale } from '../../../i18n/locales.ts';
import { createTranslator } from '../../../i18n/translator.ts';

/**
 * Alerts are kept as message keys and figures and put into words when the page asks
 * (`alerts.state`), in the language of that moment; a change of language makes the pages ask
 * again. Alert files written before there were languages hold English sentences: shown as is.
 */

const NOW = Date.parse('2026-06-21T10:00:00Z');

const alert = (id: string, message: StoredAlert['message']): StoredAlert => ({
  id,
  environmentId: 'local',
  plantUuid: '11111111-1111-4111-8111-111111111111',
  plantName: 'Berlin Dachhaus',
  timezone: 'Europe/Berlin',
  rule: 'METER_UNITS',
  subjectUuid: null,
  subjectName: null,
  severity: 'warning',
  message,
  since: '2026-06-21T09:00:00.000Z',
  openedAt: '2026-06-21T09:00:00.000Z',
  lastSeenAt: '2026-06-21T10:00:00.000Z',
  clearingSince: null,
  status: 'open',
  resolvedAt: null,
  acknowledged: null,
  muted: false,
  link: { view: 'sensors' },
  history: [{ at: '2026-06-21T09:00:00.000Z', kind: 'opened', message }],
});

const stored = [
  alert('new', {
    key: 'monitor.sensorSilent',
    params: {
      sensor: 'Consumption',
      since: { clock: NOW - 90 * 60_000, zone: 'Europe/Berlin' },
      age: { duration: 90 * 60_000 },
      interval: { duration: 30_000 },
    },
  }),
  alert('old', 'Consumption reads 0.5 W where the meters say 500 W'),
];

function monitorIn(start: AppLocale) {
  let locale = start;
  const events: Events['alerts.changed'][] = [];
  const monitor = createMonitor({
    store: {
      load: () => ({ alerts: stored, pending: [], mutes: [] }),
      save: () => {},
      remove: () => {},
      loadSettings: () => DEFAULT_MONITOR_SETTINGS,
      saveSettings: () => {},
    },
    signedIn: () => [],
    emit: (event, payload) => {
      if (event === 'alerts.changed') events.push(payload as Events['alerts.changed']);
    },
    notify: () => {},
    now: () => NOW,
    language: { effective: () => locale, translator: () => createTranslator(locale) },
  });
  return { monitor, events, switchTo: (next: AppLocale) => (locale = next) };
}

const messages = (state: ReturnType<ReturnType<typeof monitorIn>['monitor']['state']>) =>
  state.alerts.map((entry) => [entry.message, entry.history[0]!.message]);

describe('alerts in the reader’s language', () => {
  test('worded when asked, and again in the new language after a change', () => {
    const { monitor, events, switchTo } = monitorIn('en');
    const english =
      'Consumption: no reading since 10:30 AM (1 hr, 30 min); it should report every 30 sec';
    const legacy = 'Consumption reads 0.5 W where the meters say 500 W';
    expect(messages(monitor.state('local'))).toEqual([
      [english, english],
      [legacy, legacy],
    ]);

    switchTo('de');
    monitor.languageChanged();
    expect(events).toEqual([{ environmentId: 'local', openCount: 2 }]);
    const german =
      'Consumption: kein Messwert seit 10:30 (1 Std., 30 Min.); er sollte alle 30 Sek. melden';
    expect(messages(monitor.state('local'))).toEqual([
      [german, german],
      [legacy, legacy],
    ]);
  });

  test('Italian, from the start', () => {
    const { monitor } = monitorIn('it');
    expect(monitor.state('local').alerts[0]!.message).toBe(
      'Consumption: nessuna lettura da 10:30 (1 h e 30 min); dovrebbe trasmettere ogni 30 s',
    );
  });
});
