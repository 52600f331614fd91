import { describe, expect, test } from 'vitest';
import {
  afterStretch,
  beforeStretch,
  directionTestInput,
  mergePoints,
  settled,
} from '../../../renderer/src/composables/directionTestFlow.ts';
import {
  fromFlows,
  fromStatuses,
  hasRecent,
  sparklineSummary,
} from '../../../renderer/src/composables/liveReadings.ts';
import { buildWiringInput } from '../../../renderer/src/composables/wiringInput.ts';
import { figureText } from '../../../renderer/src/components/commissioning/wiringText.ts';
import { liveRow } from './liveRow.ts';
import { PLANT } from '../commissioning/fixtures.ts';
import { liveRoof, NOW, statusWithRecent } from './fixtures.ts';
import { createTranslator } from '../../../i18n/translator.ts';

const english = createTranslator('en');

/** The pure parts: live readings from either source, their text, and the wiring input. */

const roof = liveRoof();

describe('live readings', () => {
  test('from the extension: each sensor its own readings within the window, oldest first', () => {
    const status = statusWithRecent(roof.grid, (minutesAgo) => minutesAgo, NOW, 20);
    expect(hasRecent([status])).toBe(true);
    expect(hasRecent([{ ...status, recent: undefined }])).toBe(false);
    const [grid] = fromStatuses([status], NOW, new Map([[roof.grid.sensorUuid, true]]));
    expect(grid!.source).toBe('sensor');
    expect(grid!.signInverted).toBe(true);
    // 20 minutes answered, 15 kept.
    expect(grid!.recent).toHaveLength(15);
    expect(grid!.recent![0]!.value).toBe(14);
    expect(grid!.recent!.at(-1)).toEqual({ at: NOW - 20_000, value: 0 });
  });

  test('from the flows: production and consumption on the sensors that make them', () => {
    const flows = { production: [{ at: NOW - 20_000, value: 1500 }] };
    const live = fromFlows(roof.sensors, flows, NOW);
    expect(live.map((sensor) => [sensor.name, sensor.source])).toEqual([
      ['PV output', 'flow'],
      ['Grid connection', 'none'],
      ['House', 'none'],
    ]);
    expect(live[0]).toMatchObject({ unit: 'W', dataType: 'POWER', flowMeters: 1 });
    expect(liveRow(live[1]!)).toEqual({
      value: '—',
      age: '',
      note: 'no live values from this server',
    });
  });

  test('the sparkline text alternative names lowest, highest and latest', () => {
    const points = [
      { at: 1, value: 5 },
      { at: 2, value: 1 },
      { at: 3, value: 3 },
    ];
    expect(sparklineSummary(points, (value) => `${value} W`, english)).toBe(
      '3 readings in the last 15 minutes: lowest 1 W, highest 5 W, latest 3 W',
    );
    expect(sparklineSummary([], String, english)).toBe('no readings in the last 15 minutes');
  });
});

describe('the wiring input', () => {
  test('the extension gives each sensor its readings; the specification only the flows', () => {
    const statuses = roof.sensors.map((sensor) => statusWithRecent(sensor, () => 100, NOW));
    const extension = buildWiringInput(
      PLANT,
      roof.devices,
      roof.sensors,
      {
        mode: 'extension',
        sensors: fromStatuses(statuses, NOW),
        flows: {},
        loadedAt: NOW,
      },
      NOW,
    );
    expect(extension.sensors.map((sensor) => sensor.readings?.length)).toEqual([15, 15, 15]);
    expect(extension.sensors[0]).toMatchObject({
      dataType: 'POWER',
      unit: 'W',
      signInverted: false,
    });
    expect(extension.devices.map((device) => device.category)).toEqual(['PRODUCER', 'GRID']);
    expect(extension.now).toBe(NOW);

    const production = [{ at: NOW - 20_000, value: 900 }];
    const specification = buildWiringInput(
      PLANT,
      roof.devices,
      roof.sensors,
      {
        mode: 'specification',
        sensors: fromFlows(roof.sensors, { production }, NOW),
        flows: { production },
        loadedAt: NOW,
      },
      NOW,
    );
    expect(specification.sensors.every((sensor) => sensor.readings === null)).toBe(true);
    expect(specification.flows).toEqual({ production: [[NOW - 20_000, 900]] });
  });
});

describe('the direction test bookkeeping', () => {
  const points = [0, 30, 60, 90, 120, 150].map((seconds) => ({
    at: NOW + (seconds - 90) * 1000,
    value: seconds,
  }));

  test('before is the 2 minutes up to the change, after from 5 s past it', () => {
    expect(beforeStretch(points, NOW).map((point) => point.value)).toEqual([0, 30, 60, 90]);
    expect(afterStretch(points, NOW).map((point) => point.value)).toEqual([120, 150]);
    expect(settled([{ points }], NOW)).toBe(true);
    expect(settled([{ points: points.slice(0, 5) }], NOW)).toBe(false);
  });

  test('readings seen once are kept across loads', () => {
    expect(mergePoints(points.slice(0, 3), points.slice(2))).toEqual(points);
  });

  test('the meters as directionTest() takes them', () => {
    const [grid] = fromStatuses([statusWithRecent(roof.grid, () => 1, NOW)], NOW);
    const input = directionTestInput(
      { kind: 'loadSwitchedOn', powerW: 2000 },
      [{ sensor: grid!, points }],
      NOW,
    );
    expect(input.meters[0]).toMatchObject({ flow: 'GRID', unit: 'W', signInverted: false });
    expect(input.meters[0]!.before).toHaveLength(4);
    expect(input.meters[0]!.after).toEqual([
      [NOW + 30_000, 120],
      [NOW + 60_000, 150],
    ]);
  });
});

describe('figures on screen', () => {
  test('whole numbers without decimals, unknown values as a dash', () => {
    expect(figureText({ name: 'minutes', value: 3, unit: 'min' })).toBe('3 min');
    expect(figureText({ name: 'mean', value: 4022.4, unit: 'W' })).toMatch(/^4,022(\.\d+)? W$/);
    expect(figureText({ name: 'mean', value: null, unit: 'W' })).toBe('—');
  });
});
