// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import type { AlertsState } from '../../../electron/ipc/contract.ts';
import AcknowledgeDialog from '../../../renderer/src/components/fleet/AcknowledgeDialog.vue';
import AlertsView from '../../../renderer/src/views/AlertsView.vue';
import MuteDialog from '../../../renderer/src/components/fleet/MuteDialog.vue';
import { i18n } from '../../../renderer/src/i18n.ts';
import { mountWithApp } from '../support/mountWithApp.ts';

/**
 * The alerts screen over a fake host: filters, acknowledging with a note, the evidence link, the
 * host's announcements.
 */

const PLANT = '00000000-0000-4000-8000-000000000001';

function state(acknowledged = false): AlertsState {
  const base = {
    environmentId: 'local',
    plantUuid: PLANT,
    plantName: 'Berlin Dachhaus',
    timezone: 'Europe/Berlin',
    subjectUuid: null,
    subjectName: null,
    since: '2026-07-02T08:30:00Z',
    openedAt: '2026-07-02T09:30:00Z',
    lastSeenAt: '2026-07-02T10:00:00Z',
    clearingSince: null,
    muted: false,
    history: [],
  };
  return {
    environmentId: 'local',
    alerts: [
      {
        ...base,
        id: 'open-1',
        rule: 'NO_PRODUCTION',
        severity: 'critical',
        message: 'No production since 10:30: 1 h 30 min of daylight at rest',
        status: 'open',
        resolvedAt: null,
        acknowledged: acknowledged
          ? { by: 'manager@plantdesk.test', at: '2026-07-02T10:01:00Z', note: 'On it' }
          : null,
        link: {
          view: 'history',
          start: '2026-07-02T10:00',
          end: '2026-07-02T12:15',
          granularity: 'minutes',
        },
      },
      {
        ...base,
        id: 'past-1',
        rule: 'SENSOR_SILENT',
        severity: 'warning',
        message: 'Grid meter: no reading since 09:00',
        status: 'resolved',
        resolvedAt: '2026-07-02T09:00:00Z',
        acknowledged: null,
        link: { view: 'sensors' },
      },
    ],
    mutes: [],
    settings: { intervalMinutes: 5, notifications: true, keepInTray: false },
    lastCycle: { at: '2026-07-02T10:00:00Z', plants: 13, durationMs: 850, source: 'extension' },
  };
}

describe('the alerts screen', () => {
  test('lists open alerts with their reason and evidence; resolved ones on request', async () => {
    const app = await mountWithApp(AlertsView, {
      route: '/alerts',
      channels: { 'alerts.state': state() },
    });
    await app.settle();
    const text = app.wrapper.text();
    expect(text).toContain('No production since 10:30');
    expect(text).not.toContain('Grid meter: no reading');
    expect(text).toContain('13 plants');
    const evidence = app.wrapper.findAll('a').find((link) => link.text() === 'Show the evidence');
    expect(evidence!.attributes('href')).toContain(
      `/plants/${PLANT}/analytics/history?start=2026-07-02T10:00&end=2026-07-02T12:15&granularity=minutes`,
    );
    const all = app.wrapper
      .findAll('[role="radio"], button')
      .find((button) => button.text() === 'All');
    await all!.trigger('click');
    await app.settle();
    expect(app.wrapper.text()).toContain('Grid meter: no reading');
  });

  test('acknowledging sends the note and shows who acknowledged', async () => {
    const app = await mountWithApp(AlertsView, {
      route: '/alerts',
      channels: {
        'alerts.state': state(),
        'alerts.acknowledge': () => state(true),
      },
    });
    await app.settle();
    await app.wrapper
      .get('button[aria-label="Acknowledge No production at Berlin Dachhaus"]')
      .trigger('click');
    await app.settle();
    const dialog = app.wrapper.findComponent(AcknowledgeDialog);
    expect(dialog.props('alert')).toMatchObject({ id: 'open-1' });
    dialog.vm.$emit('confirm', ' On it ');
    await app.settle();
    const call = app.calls.find((entry) => entry.channel === 'alerts.acknowledge');
    expect(call!.args).toEqual([{ alertId: 'open-1', note: 'On it' }]);
    expect(app.wrapper.text()).toContain('By manager@plantdesk.test');
  });

  test('the monitor announcing a change reads the state once more', async () => {
    const reads: AlertsState[] = [state(), state(true)];
    const app = await mountWithApp(AlertsView, {
      route: '/alerts',
      channels: { 'alerts.state': () => reads.shift() ?? state(true) },
    });
    await app.settle();
    const readsOfState = () => app.calls.filter((call) => call.channel === 'alerts.state');
    expect(readsOfState()).toHaveLength(1);
    expect(app.wrapper.text()).not.toContain('By manager@plantdesk.test');

    app.emit('alerts.changed', { environmentId: 'local', openCount: 1 });
    await app.settle();
    expect(readsOfState()).toHaveLength(2);
    expect(app.wrapper.text()).toContain('By manager@plantdesk.test');
  });

  test('in German: rule names, actions, the last check with its plural, the mute durations', async () => {
    i18n.global.locale.value = 'de';
    const german = state(true);
    const app = await mountWithApp(AlertsView, {
      route: '/alerts',
      channels: {
        'alerts.state': { ...german, lastCycle: { ...german.lastCycle!, durationMs: 1250 } },
      },
    });
    await app.settle();
    const text = app.wrapper.text();
    expect(app.wrapper.get('h1').text()).toBe('Alarme');
    expect(text).toContain('Keine Erzeugung');
    expect(text).toContain('Kritisch');
    expect(text).toContain('Nachweis anzeigen');
    expect(text).toContain('Von manager@plantdesk.test');
    expect(text).toMatch(/Zuletzt geprüft .*: 13 Anlagen in 1\.250 ms/);
    const mute = app.wrapper.get('button[aria-label="Berlin Dachhaus stummschalten"]');
    await mute.trigger('click');
    await app.settle();
    const durations = app.wrapper
      .findComponent(MuteDialog)
      .findAllComponents({ name: 'Select' })[1]!;
    expect((durations.props('options') as { label: string }[]).map((o) => o.label)).toEqual([
      '1 Stunde',
      '4 Stunden',
      '1 Tag',
      '3 Tage',
      '1 Woche',
    ]);
  });
});
