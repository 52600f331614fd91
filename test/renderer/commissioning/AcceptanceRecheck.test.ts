// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import type { AcceptanceRecheck as Recheck } from '../../../electron/ipc/contract.ts';
import AcceptanceRecheck from '../../../renderer/src/components/commissioning/AcceptanceRecheck.vue';
import { mountWithApp } from '../support/mountWithApp.ts';
import { PLANT_UUID } from './fixtures.ts';

/**
 * The report's acceptance re-check: not scheduled, pending with its due time in the plant's
 * zone, and done with each finding's result, numbers and what to do; a result arriving while
 * the report is open replaces the pending line.
 */

const PENDING: Recheck = {
  plantUuid: PLANT_UUID,
  plantName: 'Roof in Turin',
  commissionedAt: '2026-06-21T08:00:00.000Z',
  dueAt: '2026-06-22T08:00:00.000Z',
  status: 'pending',
  result: null,
  lastError: null,
};

const DONE: Recheck = {
  ...PENDING,
  status: 'done',
  result: {
    checkedAt: '2026-06-22T08:00:05.000Z',
    windowStart: PENDING.commissionedAt,
    windowEnd: PENDING.dueAt,
    status: 'fail',
    findings: [
      {
        id: 'dataCoverage',
        title: 'Data coverage over the 24 hours',
        status: 'warning',
        figures: [{ name: 'Grid, last 24 h', value: 88.5, unit: '%' }],
        finding: 'Gaps in the data: “Grid” 88.5 %.',
        action: "Check the gateway's network connection.",
      },
      {
        id: 'production',
        title: 'Production against clear-sky expectation',
        status: 'pass',
        figures: [
          { name: 'production', value: 31.2, unit: 'kWh' },
          { name: 'clear-sky expectation', value: 44.6, unit: 'kWh' },
        ],
        finding: '31.2 kWh produced, 70 % of the 44.6 kWh a clear sky allows.',
        action: '',
      },
      {
        id: 'openAlerts',
        title: 'Open alerts',
        status: 'fail',
        figures: [{ name: 'open critical alerts', value: 1, unit: '' }],
        finding: 'Open: “PV” is silent.',
        action: 'Resolve each before handing the plant over.',
      },
    ],
  },
};

function mount(answer: unknown) {
  return mountWithApp(AcceptanceRecheck, {
    props: { plantUuid: PLANT_UUID, timezone: 'Europe/Rome' },
    channels: { 'acceptance.get': answer },
  });
}

describe('AcceptanceRecheck', () => {
  test('titled for the report, and says when nothing is scheduled', async () => {
    const app = await mount(null);
    await app.settle();
    const section = app.wrapper.find('section');
    expect(section.attributes('aria-labelledby')).toBe(app.wrapper.find('h4').attributes('id'));
    expect(app.wrapper.find('h4').text()).toBe('Acceptance re-check (24 h)');
    expect(app.wrapper.find('[data-status="none"]').text()).toMatch(/Not scheduled/);
    expect(app.calls.map((call) => call.args)).toContainEqual([PLANT_UUID]);
  });

  test('pending: its due time in the plant zone, and a failed attempt said', async () => {
    const app = await mount({ ...PENDING, lastError: 'network down' });
    await app.settle();
    const pending = app.wrapper.find('[data-status="pending"]');
    expect(pending.text()).toMatch(/^PENDING: due/);
    const due = pending.find('time');
    expect(due.attributes('datetime')).toBe(PENDING.dueAt);
    expect(due.text()).toMatch(/June 22, 2026.*10:00/);
    expect(app.wrapper.text()).toContain('The last attempt could not run (network down)');
  });

  test('done: the three findings with their result, numbers and what to do', async () => {
    const app = await mount(DONE);
    await app.settle();
    expect(app.wrapper.find('.overall').text()).toMatch(/^FAIL: the 24 hours from/);
    const table = app.wrapper.find('table[aria-label="Acceptance findings"]');
    const rows = table.findAll('tbody tr');
    expect(rows.map((row) => row.attributes('data-status'))).toEqual(['warning', 'pass', 'fail']);
    expect(rows[0]!.find('th').text()).toBe('Data coverage over the 24 hours');
    expect(rows[0]!.find('.verdict').text()).toBe('WARNING');
    expect(rows[0]!.text()).toContain('Grid, last 24 h: 88.5 %');
    expect(rows[1]!.text()).toContain('production: 31.2 kWh');
    expect(rows[1]!.text()).not.toContain('What to do');
    expect(rows[2]!.text()).toContain('What to do: Resolve each');
  });

  test('follows the host: a result arriving replaces the pending line', async () => {
    const app = await mount(PENDING);
    await app.settle();
    expect(app.wrapper.find('[data-status="pending"]').exists()).toBe(true);
    app.channels['acceptance.get'] = DONE;
    app.emit('acceptance.changed', { environmentId: 'other', plantUuid: 'elsewhere' });
    await app.settle();
    expect(app.wrapper.find('[data-status="pending"]').exists()).toBe(true);
    app.emit('acceptance.changed', { environmentId: 'local', plantUuid: PLANT_UUID });
    await app.settle();
    expect(app.wrapper.find('[data-status="pending"]').exists()).toBe(false);
    expect(app.wrapper.findAll('[data-acceptance-finding]')).toHaveLength(3);
  });

  test('a host that cannot answer: the report says so and goes on', async () => {
    const app = await mount({ kind: 'internal', message: 'no such channel' });
    await app.settle();
    expect(app.wrapper.find('[role="status"]').text()).toBe('no such channel');
  });
});
