// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import type { CommissioningNotes } from '../../../electron/ipc/contract.ts';
import CommissioningReport from '../../../renderer/src/components/commissioning/CommissioningReport.vue';
import type { Verification } from '../../../renderer/src/composables/commissioningChecks.ts';
import type { LiveReadings } from '../../../renderer/src/composables/liveReadings.ts';
import type {
  DirectionTestResult,
  WiringCheckResult,
} from '../../../server/domain/wiring/index.ts';
import { mountWithApp } from '../support/mountWithApp.ts';
import { commissionedRoof, PLANT } from './fixtures.ts';

/**
 * The report's sections on crafted data: the checks with the numbers they compared and their
 * advice, the direction test's conclusion, an inverted sensor named, the live values as they
 * were at verification (ages counted to then, not to when the report is shown), the installer's
 * notes and photos per step, and the signature line; and a draft's report, watermarked.
 */

const VERIFIED_AT = Date.parse('2026-11-20T10:00:00Z');
/** The report is produced an hour later: the live values' ages must not move. */
const GENERATED_AT = new Date('2026-11-20T11:00:00Z');
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

function crafted() {
  const roof = commissionedRoof();
  const grid = { ...roof.grid, signInverted: true };
  const pv = { ...roof.pv, signInverted: false };
  const verification: Verification = {
    passed: false,
    checkedAt: new Date(VERIFIED_AT).toISOString(),
    checks: [
      {
        id: 'connections',
        title: 'Every sensor answers',
        passed: true,
        reason: '2 of 2 connections answered.',
        details: [],
      },
      {
        id: 'readings',
        title: 'Readings arrived',
        passed: false,
        reason: 'No production reading in the last 15 minutes.',
        details: ['PV output: last reading 42 minutes ago'],
      },
    ] as unknown as Verification['checks'],
  };
  const wiringChecks: WiringCheckResult[] = [
    {
      id: 'gridSign',
      title: "The grid meter's sign agrees with production and consumption",
      status: 'fail',
      subject: { uuid: grid.sensorUuid, name: 'Grid connection' },
      figures: [
        { name: 'grid, mean', value: 1234, unit: 'W' },
        { name: 'production − consumption', value: 2345, unit: 'W' },
      ],
      finding: 'The grid meter reads import while the plant exports.',
      action: 'Record the grid meter as inverted.',
    },
    {
      id: 'energyBalance',
      title: 'Consumption = production + grid + battery',
      status: 'warning',
      subject: null,
      figures: [{ name: 'imbalance', value: 321, unit: 'W' }],
      finding: 'The balance is off by 321 W.',
      action: 'Check that every consumer is measured.',
    },
    {
      id: 'timeZone',
      title: 'The time zone matches the coordinates',
      status: 'pass',
      subject: null,
      figures: [],
      finding: 'Europe/Rome matches 45.07, 7.69.',
      action: '',
    },
  ];
  const directionResults: DirectionTestResult[] = [
    {
      sensorUuid: grid.sensorUuid,
      name: 'Grid connection',
      outcome: 'reversed',
      signInverted: true,
      figures: [
        { name: 'change measured', value: -1987, unit: 'W' },
        { name: 'change expected', value: 2000, unit: 'W' },
      ],
      finding: 'The meter went down by 1,987 W when a 2,000 W load was switched on.',
      action: 'Record it as inverted.',
    },
  ];
  const live: LiveReadings = {
    mode: 'extension',
    loadedAt: VERIFIED_AT,
    flows: {},
    sensors: [
      {
        sensorUuid: pv.sensorUuid,
        name: 'PV output',
        deviceUuid: pv.deviceUuid,
        flow: 'PRODUCTION',
        dataType: 'POWER',
        unit: 'W',
        signInverted: false,
        source: 'sensor',
        recent: [{ at: VERIFIED_AT - 30_000, value: 512 }],
      },
      {
        sensorUuid: grid.sensorUuid,
        name: 'Grid connection',
        deviceUuid: grid.deviceUuid,
        flow: 'GRID',
        dataType: 'POWER',
        unit: 'W',
        signInverted: true,
        source: 'sensor',
        recent: [{ at: VERIFIED_AT - 5 * 60_000, value: -734 }],
      },
    ],
  };
  const notes: CommissioningNotes = {
    updatedAt: new Date(VERIFIED_AT).toISOString(),
    steps: {
      sensors: {
        text: 'CT on L1, arrow towards the house',
        photos: [
          { photoId: 'p1', dataUrl: PNG, caption: '', addedAt: '2026-11-20T09:00:00Z' },
          {
            photoId: 'p2',
            dataUrl: PNG,
            caption: 'Meter cabinet',
            addedAt: '2026-11-20T09:01:00Z',
          },
        ],
      },
      devices: { text: 'Inverter label photographed', photos: [] },
      vendors: { text: '   ', photos: [] },
    },
  };
  return {
    devices: roof.devices,
    sensors: [pv, grid],
    verification,
    wiringChecks,
    directionResults,
    live,
    notes,
  };
}

const INSTALLER = { name: 'Ines Installer', email: 'installer@plantdesk.test' };

async function mountReport(props: Record<string, unknown>) {
  const app = await mountWithApp(CommissioningReport, {
    props: {
      plant: PLANT,
      installer: INSTALLER,
      environmentName: 'Local sandbox',
      generatedAt: GENERATED_AT,
      ...props,
    },
  });
  await app.settle();
  return app.wrapper;
}

const section = (wrapper: Awaited<ReturnType<typeof mountReport>>, selector: string) =>
  wrapper.find(selector);

describe('the commissioning report', () => {
  test('lists every check with its status, the numbers it compared and the advice', async () => {
    const data = crafted();
    const wrapper = await mountReport({
      devices: data.devices,
      sensors: data.sensors,
      verification: data.verification,
      wiringChecks: data.wiringChecks,
      directionResults: data.directionResults,
      liveAtVerification: data.live,
      notes: data.notes,
    });

    const verification = wrapper.find('[data-check="readings"]');
    expect(verification.text()).toContain('FAIL');
    expect(verification.text()).toContain('PV output: last reading 42 minutes ago');
    expect(wrapper.find('[data-check="connections"]').text()).toContain('PASS');

    const wiring = wrapper.find('[data-wiring-checks]');
    expect(wiring.find('h4').text()).toBe('Wiring and plausibility');
    const grid = wiring.find('[data-wiring-check="gridSign"]');
    expect(grid.attributes('data-status')).toBe('fail');
    expect(grid.text()).toContain('FAIL');
    expect(grid.text()).toContain('Grid connection');
    expect(grid.text()).toMatch(/grid, mean\s*1,234 W/);
    expect(grid.text()).toMatch(/production − consumption\s*2,345 W/);
    expect(grid.text()).toContain('What to do: Record the grid meter as inverted.');
    // The report records; it offers no fix.
    expect(grid.find('button').exists()).toBe(false);
    const balance = wiring.find('[data-wiring-check="energyBalance"]');
    expect(balance.text()).toContain('WARNING');
    expect(balance.text()).toMatch(/imbalance\s*321 W/);
    expect(wiring.find('[data-wiring-check="timeZone"]').text()).toContain('PASS');

    const direction = section(wrapper, '[data-report-direction]');
    expect(direction.text()).toContain('REVERSED: Grid connection');
    expect(direction.text()).toMatch(/change measured\s*-1,987 W/);
    expect(direction.text()).toMatch(/change expected\s*2,000 W/);
    expect(direction.text()).toContain('What to do: Record it as inverted.');
    expect(direction.find('button').exists()).toBe(false);
  });

  test('names the sensor recorded as inverted, and only that one', async () => {
    const data = crafted();
    const wrapper = await mountReport({
      devices: data.devices,
      sensors: data.sensors,
      verification: data.verification,
    });
    const inverted = section(wrapper, '[data-report-inverted]');
    expect(inverted.findAll('li')).toHaveLength(1);
    expect(inverted.find('li').text()).toContain(
      'Grid connection: recorded as inverted: the server flips its readings',
    );
    expect(inverted.text()).not.toContain('PV output');
    const gridRow = wrapper.findAll('tr').find((row) => row.text().startsWith('Grid connection'));
    expect(gridRow?.text()).toContain('recorded as inverted');
  });

  test('shows the live values as read at verification, with unit and age to then', async () => {
    const data = crafted();
    const wrapper = await mountReport({
      devices: data.devices,
      sensors: data.sensors,
      verification: data.verification,
      liveAtVerification: data.live,
    });
    const live = section(wrapper, '[data-report-live]');
    const rows = live
      .findAll('tbody tr')
      .map((row) => row.findAll('th, td').map((cell) => cell.text()));
    expect(rows).toEqual([
      ['PV output', '512 W', '30 s ago', ''],
      ['Grid connection', '-734 W', '5 min ago', 'recorded as inverted'],
    ]);
    // When the live values were read, in the plant's zone, whatever the test machine's locale.
    const readAt = new Intl.DateTimeFormat(undefined, {
      dateStyle: 'long',
      timeStyle: 'short',
      timeZone: 'Europe/Rome',
    }).format(VERIFIED_AT);
    expect(live.text()).toContain(`Read on ${readAt};`);
  });

  test('shows the installer’s notes and photos per step, leaving out empty steps', async () => {
    const data = crafted();
    const wrapper = await mountReport({
      devices: data.devices,
      sensors: data.sensors,
      verification: data.verification,
      notes: data.notes,
    });
    const notes = section(wrapper, '[data-report-notes]');
    const steps = notes.findAll('[data-report-notes-step]');
    expect(steps.map((step) => step.attributes('data-report-notes-step'))).toEqual([
      'sensors',
      'devices',
    ]);
    expect(steps[0]!.find('h5').text()).toBe('Sensors');
    expect(steps[0]!.text()).toContain('CT on L1, arrow towards the house');
    const photos = steps[0]!.findAll('img');
    expect(photos.map((photo) => photo.attributes('alt'))).toEqual([
      'Photo 1 of the Sensors step',
      'Meter cabinet',
    ]);
    expect(photos[0]!.attributes('src')).toBe(PNG);
    expect(steps[0]!.find('figcaption').text()).toBe('Meter cabinet');
    expect(steps[1]!.text()).toContain('Inverter label photographed');
  });

  test('ends with a signature line: the installer’s name, a line to sign, the date', async () => {
    const data = crafted();
    const wrapper = await mountReport({
      devices: data.devices,
      sensors: data.sensors,
      verification: data.verification,
    });
    const signature = section(wrapper, '[data-report-signature]');
    const terms = signature.findAll('dt').map((term) => term.text());
    const values = signature.findAll('dd').map((value) => value.text());
    expect(terms).toEqual(['Installer', 'Signature', 'Date']);
    expect(values[0]).toBe('Ines Installer');
    expect(values[1]).toBe('(a blank line to sign)');
    expect(values[2]).toBe(
      new Intl.DateTimeFormat(undefined, { dateStyle: 'long', timeZone: 'Europe/Rome' }).format(
        GENERATED_AT,
      ),
    );
  });

  test('a draft’s report keeps its watermark, says what was not checked, and shows its notes', async () => {
    const data = crafted();
    const wrapper = await mountReport({
      devices: data.devices,
      sensors: data.sensors,
      verification: null,
      notVerified: true,
      notes: data.notes,
    });
    expect(wrapper.find('.watermark').text()).toBe('Not verified');
    expect(wrapper.text()).toContain(
      'Not checked: the wiring checks run on live readings, once the draft is sent.',
    );
    expect(section(wrapper, '[data-report-direction]').text()).toContain('Not run.');
    expect(section(wrapper, '[data-report-live]').text()).toContain(
      'the live values are read once the draft is sent',
    );
    expect(section(wrapper, '[data-report-notes]').findAll('img')).toHaveLength(2);
    expect(section(wrapper, '[data-report-signature]').exists()).toBe(true);
  });
});
