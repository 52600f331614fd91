// @vitest-environment happy-dom
import { describe, expect, test, vi } from 'vitest';
import type { SensorStatus } from '../../../api/schemas/fleet.ts';
import { PLANT_UUID } from '../commissioning/fixtures.ts';
import {
  connectionsPass,
  mountWizard,
  pinWizardClock,
  wizardRoutes,
} from '../support/commissioningApp.ts';
import { page, type RouteAnswers } from '../support/mountWithApp.ts';
import { button as buttonNamed } from '../support/queries.ts';
import {
  EXPORT_W,
  HOUSE_W,
  liveRoof,
  NOW,
  PV_W,
  statusesAnswer,
  statusWithRecent,
  type Profile,
} from './fixtures.ts';

/**
 * The verification step's wiring checks on the live readings (a grid meter mounted backwards
 * fails the grid-sign check with its numbers, and recording it as inverted makes it pass), and
 * the guided direction test.
 */

type Input = { params: Record<string, string>; body: any };

const roof = liveRoof();

/** A plant whose history routes have no sample: the live readings come from the extension. */
const noSamples = {
  plantUuid: PLANT_UUID,
  timezone: 'Europe/Rome',
  unit: 'W',
  from: '',
  to: '',
  points: [],
};

const mountVerification = (statuses: () => SensorStatus[], extra: RouteAnswers = {}) =>
  mountWizard(
    'verification',
    wizardRoutes(roof, {
      testSensorConnection: connectionsPass(new Date(NOW).toISOString()),
      historyProduction: noSamples,
      historyConsumption: noSamples,
      listSensorStatuses: () => statusesAnswer(statuses(), Date.now()),
      ...extra,
    }),
  );

const statusesWithGrid = (grid: Profile, endMs = Date.now()) => [
  statusWithRecent(roof.pv, () => PV_W, endMs),
  statusWithRecent(roof.grid, grid, endMs),
  statusWithRecent(roof.house, () => HOUSE_W, endMs),
];

const checkOf = (app: Awaited<ReturnType<typeof mountVerification>>, id: string) =>
  app.wrapper.find(`[data-wiring-check="${id}"]`);
const button = (app: Awaited<ReturnType<typeof mountVerification>>, name: string) =>
  buttonNamed(app.wrapper as never, name);

pinWizardClock(NOW);

describe('wiring checks', () => {
  test('a reversed grid meter fails the grid-sign check with its numbers; recorded as inverted, it passes', async () => {
    // The meter reads import where the plant exports.
    let gridSign = 1;
    const app = await mountVerification(() => statusesWithGrid(() => gridSign * EXPORT_W), {
      updateSensor: (input: Input) => {
        gridSign = -1;
        return { ...roof.grid, signInverted: input.body.signInverted };
      },
    });
    await app.settle();
    await vi.waitFor(() => expect(checkOf(app, 'gridSign').exists()).toBe(true));

    const grid = checkOf(app, 'gridSign');
    expect(grid.attributes('data-status')).toBe('fail');
    expect(grid.text()).toContain('FAIL');
    expect(grid.text()).toContain('Grid connection');
    expect(grid.text()).toContain('mounted backwards');
    // The numbers compared, named.
    const figures = grid.find('dl[aria-label="Numbers compared"]');
    expect(figures.text()).toContain('grid meter, mean (import +)');
    expect(figures.text()).toMatch(/2,400 W/);
    expect(figures.text()).toMatch(/-2,400 W/);
    expect(grid.text()).toContain('What to do:');
    expect(grid.text()).toContain('“Sign inverted”');
    // Production and consumption are fine; the tolerance of the balance is on screen.
    expect(checkOf(app, 'productionSign').attributes('data-status')).toBe('pass');
    expect(checkOf(app, 'consumptionSign').attributes('data-status')).toBe('pass');
    expect(app.wrapper.find('[data-balance-tolerance]').text()).toContain(
      '5 % of the largest flow, and at least 100 W',
    );

    await button(app, 'Record Grid connection as inverted').trigger('click');
    await app.settle();
    expect(app.callsTo('updateSensor')[0]!.input).toMatchObject({
      params: { plantUuid: PLANT_UUID, sensorUuid: roof.grid.sensorUuid },
      body: { signInverted: true },
    });
    await vi.waitFor(() => expect(checkOf(app, 'gridSign').attributes('data-status')).toBe('pass'));
  });

  test('without the signInverted extension, no button offers to record it', async () => {
    const plain = roof.sensors.map(({ signInverted: _signInverted, ...rest }) => rest);
    const app = await mountVerification(() => statusesWithGrid(() => EXPORT_W), {
      listSensors: page(plain),
    });
    await app.settle();
    await vi.waitFor(() => expect(checkOf(app, 'gridSign').attributes('data-status')).toBe('fail'));
    expect(app.wrapper.text()).not.toContain('Record as inverted');
  });
});

describe('the guided direction test', () => {
  test('a 2 kW load switched on shows the grid meter reversed and the house meter right; the report records it', async () => {
    let changedAt = Number.POSITIVE_INFINITY;
    let inverted = false;
    // Before: export 2.4 kW read reversed (+2.4 kW); after the load, export 400 W (+400 W).
    const grid: Profile = (minutesAgo) =>
      Date.now() - minutesAgo * 60_000 - 20_000 >= changedAt + 5_000 ? 400 : EXPORT_W;
    const house: Profile = (minutesAgo) =>
      Date.now() - minutesAgo * 60_000 - 20_000 >= changedAt + 5_000 ? HOUSE_W + 2000 : HOUSE_W;
    const app = await mountVerification(
      () => [
        statusWithRecent(roof.pv, () => PV_W, Date.now()),
        statusWithRecent(roof.grid, grid, Date.now()),
        statusWithRecent(roof.house, house, Date.now()),
      ],
      {
        updateSensor: (input: Input) => {
          inverted = input.body.signInverted;
          return { ...roof.grid, signInverted: inverted };
        },
        listSensors: () =>
          page(
            roof.sensors.map((sensor) =>
              sensor.sensorUuid === roof.grid.sensorUuid
                ? { ...sensor, signInverted: inverted }
                : sensor,
            ),
          ),
      },
    );
    await app.settle();
    const section = () => app.wrapper.find('[data-direction-test]');
    await vi.waitFor(() => expect(section().text()).toContain('Start the direction test'));

    // The known change: a load of 2,000 W (the default), labelled controls.
    expect(section().find('input[type="radio"][value="loadSwitchedOn"]').exists()).toBe(true);
    const power = section().find('input[id$="-power"]');
    expect(app.wrapper.find(`label[for="${power.attributes('id')}"]`).text()).toBe(
      'Load power (W)',
    );
    await button(app, 'Start the direction test').trigger('click');
    await app.settle();
    expect(section().text()).toContain('Switch the 2.00 kW load on now');
    expect(section().find('ul[aria-label="Meters watched"]').text()).toContain('Grid connection');

    changedAt = Date.now();
    await button(app, 'The change is made').trigger('click');
    await app.settle();
    expect(section().text()).toContain('Watching the meters respond');

    // Two minutes later the meters have settled on their new values.
    vi.setSystemTime(NOW + 2 * 60_000 + 30_000);
    await button(app, 'Refresh the live readings').trigger('click');
    await app.settle();
    await vi.waitFor(() => expect(section().find('[data-direction-result]').exists()).toBe(true));

    const results = section().findAll('[data-direction-result]');
    expect(results.map((result) => result.attributes('data-direction-result'))).toEqual([
      'reversed',
      'asExpected',
    ]);
    expect(results[0]!.text()).toContain('REVERSED: Grid connection');
    expect(results[0]!.text()).toContain('mounted backwards');
    expect(results[0]!.text()).toContain('change measured');
    expect(results[1]!.text()).toContain('MOUNTED RIGHT: House');

    await button(app, 'Record Grid connection as inverted').trigger('click');
    await app.settle();
    expect(app.callsTo('updateSensor')[0]!.input!.body).toEqual({ signInverted: true });

    // The report: the test's conclusion with its numbers, the meter named as inverted, and the
    // live values and wiring checks of the verification run after recording it.
    await app.settle();
    const loadsBefore = app.callsTo('listSensorStatuses').length;
    await app.wrapper.setProps({ step: 'report' });
    await app.settle();
    const report = () => app.wrapper.find('.commissioning-report');
    await vi.waitFor(() => expect(report().find('[data-report-live] table').exists()).toBe(true));
    const direction = report().find('[data-report-direction]');
    expect(direction.text()).toContain('REVERSED: Grid connection');
    expect(direction.text()).toContain('change measured');
    expect(direction.text()).toContain('MOUNTED RIGHT: House');
    expect(report().find('[data-report-inverted]').text()).toContain(
      'Grid connection: recorded as inverted: the server flips its readings',
    );
    expect(report().find('[data-wiring-check="gridSign"]').exists()).toBe(true);
    const liveRows = report().findAll('[data-report-live] tbody tr');
    expect(liveRows.map((row) => row.find('th').text())).toEqual(
      roof.sensors.map((sensor) => sensor.name),
    );
    // Shown, not read again: the report reads no live values of its own.
    vi.setSystemTime(NOW + 10 * 60_000);
    await app.settle();
    expect(app.callsTo('listSensorStatuses').length).toBe(loadsBefore);
  });

  test('cannot start without a grid or consumption meter with live values', async () => {
    const app = await mountVerification(() => [statusWithRecent(roof.pv, () => PV_W, Date.now())], {
      listSensors: page([roof.pv]),
    });
    await app.settle();
    await vi.waitFor(() =>
      expect(app.wrapper.find('[data-direction-blocked]').text()).toContain(
        'No grid or consumption power meter has live values',
      ),
    );
    expect(button(app, 'Start the direction test').attributes('disabled')).toBeDefined();
  });
});
