import { describe, expect, test } from 'vitest';
import {
  ENERGY_BALANCE_TOLERANCE_MIN_W,
  energyBalance,
  gridSign,
  neverNegative,
  powerUnits,
  productionVsClearSky,
  proposeTimeZone,
  pvSettingsCheck,
  runWiringChecks,
  storageSign,
  timeZoneCheck,
  type WiringCheckId,
  type WiringCheckResult,
  type WiringInput,
} from '../../../server/domain/wiring/index.ts';
import {
  craftedPlant,
  DST_NOON,
  DST_SWITCH,
  JUNE_NIGHT,
  JUNE_NOON,
  sensor,
  series,
  withReadings,
} from './craftedPlant.ts';
import { en } from './english.ts';

/** Each check on crafted series of a home near Bolzano (8.4 kWp, Europe/Rome). */

const NONE = new Set<string>();
const statusOf = (results: readonly WiringCheckResult[], id: WiringCheckId, subject?: string) =>
  results
    .filter(
      (check) => check.id === id && (subject === undefined || check.subject?.name === subject),
    )
    .map((check) => check.status);
const problems = (input: WiringInput) =>
  runWiringChecks(input)
    .filter((check) => check.status === 'fail' || check.status === 'warning')
    .map((check) => `${check.id}:${check.subject?.name ?? '-'}:${check.status}`);
const figureOf = (check: WiringCheckResult, name: string) =>
  check.figures.find((figure) => en(figure.name).startsWith(name))?.value;

/** Noon in June: 5 kW of PV (clouds), 800 W used, 1.5 kW into the battery, the rest exported. */
const sunnyNoon = () =>
  craftedPlant(JUNE_NOON, { production: 5000, consumption: 800, storage: -1500 });

describe('a consistent plant', () => {
  test('at summer noon every check passes or has nothing to judge', () => {
    const results = runWiringChecks(sunnyNoon());
    expect(problems(sunnyNoon())).toEqual([]);
    expect(statusOf(results, 'gridSign')).toEqual(['pass']);
    expect(statusOf(results, 'storageSign')).toEqual(['pass']);
    expect(statusOf(results, 'energyBalance')).toEqual(['pass']);
    expect(statusOf(results, 'productionVsClearSky')).toEqual(['pass']);
    expect(statusOf(results, 'timeZone')).toEqual(['pass']);
    const grid = results.find((check) => check.id === 'gridSign')!;
    expect(figureOf(grid, 'grid meter, mean')).toBe(-2700);
    expect(en(grid.finding)).toContain('2.7 kW export');
  });

  test('at night production is at rest and not judged against the sun; the grid still is', () => {
    const input = craftedPlant(JUNE_NIGHT, { production: 0, consumption: 1000, storage: 800 });
    const results = runWiringChecks(input);
    expect(problems(input)).toEqual([]);
    expect(statusOf(results, 'productionSign')).toEqual(['notApplicable']);
    const sun = results.find((check) => check.id === 'productionVsClearSky')!;
    expect(sun.status).toBe('notApplicable');
    expect(figureOf(sun, 'sun elevation')).toBeLessThan(0);
    expect(statusOf(results, 'gridSign')).toEqual(['notApplicable']); // 200 W import < 252 W
    expect(statusOf(results, 'storageSign')).toEqual(['pass']);
  });

  test('on the spring-forward DST day (Europe/Rome) the window across 02:00 → 03:00 is 15 minutes like any other', () => {
    const noon = craftedPlant(DST_NOON, { production: 3000, consumption: 500, storage: 0 });
    expect(problems(noon)).toEqual([]);
    expect(statusOf(runWiringChecks(noon), 'productionVsClearSky')).toEqual(['pass']);
    const night = craftedPlant(DST_SWITCH, { production: 0, consumption: 900 });
    const results = runWiringChecks(night);
    expect(problems(night)).toEqual([]);
    expect(statusOf(results, 'gridSign')).toEqual(['pass']);
    expect(
      figureOf(
        results.find((check) => check.id === 'gridSign')!,
        'minutes agreeing',
      ),
    ).toBe(15);
  });

  test('an idle battery is not judged; the balance still closes', () => {
    const input = craftedPlant(JUNE_NOON, { production: 4000, consumption: 700, storage: 0 });
    const storage = storageSign(input);
    expect(storage.map((check) => check.status)).toEqual(['notApplicable']);
    expect(en(storage[0]!.finding)).toContain('idle');
    expect(energyBalance(input, NONE).status).toBe('pass');
  });

  test('a plant without PV: production checks have nothing to judge, the grid is consumption', () => {
    const input = craftedPlant(JUNE_NOON, { consumption: 1200 }, { pv: false });
    const results = runWiringChecks(input);
    expect(problems(input)).toEqual([]);
    expect(statusOf(results, 'productionSign')).toEqual(['notApplicable']);
    expect(statusOf(results, 'productionVsClearSky')).toEqual(['notApplicable']);
    expect(statusOf(results, 'pvSettings')).toEqual(['notApplicable']);
    expect(statusOf(results, 'gridSign')).toEqual(['pass']);
    expect(statusOf(results, 'energyBalance')).toEqual(['pass']);
  });
});

describe('wiring mistakes', () => {
  test('a reversed grid CT: import while the plant exports, caught by the grid sign only', () => {
    const input = withReadings(sunnyNoon(), 'Grid meter', (value) => -value);
    const grid = gridSign(input, NONE)[0]!;
    expect(grid.status).toBe('fail');
    expect(en(grid.finding)).toBe(
      '“Grid meter” reads 2.7 kW import while production, consumption and the battery mean 2.7 kW export (opposite sign in 15 of 15 minutes): it is mounted backwards.',
    );
    expect(en(grid.action)).toContain('“Sign inverted”');
    expect(problems(input)).toEqual(['gridSign:Grid meter:fail']);
    expect(statusOf(runWiringChecks(input), 'energyBalance')).toEqual(['notApplicable']);
  });

  test('a reversed grid CT already marked signInverted: the fix is to clear the setting', () => {
    const input = withReadings(sunnyNoon(), 'Grid meter', (value) => -value);
    const marked = {
      ...input,
      sensors: input.sensors.map((s) =>
        s.name === 'Grid meter' ? { ...s, signInverted: true } : s,
      ),
    };
    expect(en(gridSign(marked, NONE)[0]!.action)).toMatch(/^Clear the “Sign inverted” setting/);
  });

  test('a reversed production meter fails the production sign, and the grid is not blamed', () => {
    const input = withReadings(sunnyNoon(), 'PV meter', (value) => -value);
    expect(problems(input)).toEqual(['productionSign:PV meter:fail']);
    expect(statusOf(runWiringChecks(input), 'gridSign')).toEqual(['notApplicable']);
  });

  test('a reversed battery meter: charging while the state of charge falls', () => {
    const input = withReadings(sunnyNoon(), 'Battery power', (value) => -value);
    const storage = storageSign(input)[0]!;
    expect(storage.status).toBe('fail');
    expect(en(storage.finding)).toContain(
      '1.5 kW discharge but the state of charge rose by 3.5 points',
    );
    expect(problems(input)).toEqual(['storageSign:Battery power:fail']);
  });

  test('a kW consumption meter: a thousandth of what the balance says, caught by the units check', () => {
    const input = withReadings(sunnyNoon(), 'House meter', (value) => value / 1000);
    const units = powerUnits(input).find((check) => check.subject?.name === 'House meter')!;
    expect(units.status).toBe('fail');
    expect(figureOf(units, 'implied ÷ reading')).toBe(1000);
    expect(problems(input)).toEqual(['powerUnits:House meter:fail']);
  });

  test('a kW PV meter in good sun: a thousandth of clear sky is the unit, not a trip', () => {
    const input = withReadings(sunnyNoon(), 'PV meter', (value) => value / 1000);
    expect(problems(input)).toEqual(['powerUnits:PV meter:fail']);
    expect(statusOf(runWiringChecks(input), 'productionVsClearSky')).toEqual(['notApplicable']);
  });

  test('a meter reading a thousand times its rated power', () => {
    const input = withReadings(sunnyNoon(), 'Battery power', (value) => value * 1000);
    const units = powerUnits(input).find((check) => check.subject?.name === 'Battery power')!;
    expect(units.status).toBe('fail');
    expect(en(units.finding)).toContain('for a device rated 5 kW, about a thousand times more');
  });

  test('a tripped inverter: nothing in good sun', () => {
    const input = craftedPlant(JUNE_NOON, { production: 0, consumption: 800, storage: 0 });
    const sun = productionVsClearSky(input, NONE);
    expect(sun.status).toBe('fail');
    expect(en(sun.finding)).toMatch(/reads at most 0 W while a clear sky allows 6\.\d kW now/);
    expect(problems(input)).toEqual(['productionVsClearSky:PV meter:fail']);
  });

  test('production far above clear sky: wrong unit or peak power', () => {
    const input = craftedPlant(JUNE_NOON, { production: 20_000, consumption: 800, storage: 0 });
    const sun = productionVsClearSky(input, NONE);
    expect(sun.status).toBe('fail');
    expect(en(sun.action)).toContain('peak power');
    const slightly = craftedPlant(JUNE_NOON, { production: 8500, consumption: 800, storage: 0 });
    expect(productionVsClearSky(slightly, NONE).status).toBe('warning');
  });

  test('an unmeasured load breaks the balance beyond its stated tolerance', () => {
    const input = craftedPlant(JUNE_NOON, {
      production: 5000,
      consumption: 800,
      storage: -1500,
      grid: -1900, // 800 W of load the house meter does not see
    });
    const balance = energyBalance(input, NONE);
    expect(balance.status).toBe('fail');
    expect(figureOf(balance, 'difference')).toBe(-800);
    expect(figureOf(balance, 'tolerance')).toBe(250);
    expect(en(balance.finding)).toContain('more than the 250 W allowed');
    const small = craftedPlant(
      JUNE_NIGHT,
      { production: 0, consumption: 300, grid: 380 },
      { pv: true },
    );
    expect(figureOf(energyBalance(small, NONE), 'tolerance')).toBe(ENERGY_BALANCE_TOLERANCE_MIN_W);
  });

  test('consumption negative in most readings is a reversed meter', () => {
    const input = withReadings(sunnyNoon(), 'House meter', (value) => -value);
    expect(neverNegative(input, 'CONSUMPTION')[0]!.status).toBe('fail');
    expect(problems(input)).toEqual(['consumptionSign:House meter:fail']);
  });
});

describe('readings from the specification only (production and consumption history)', () => {
  test('production and consumption are judged from the combined flows; the grid is not', () => {
    const plant = sunnyNoon();
    const input: WiringInput = {
      ...plant,
      sensors: plant.sensors.map((s) => ({ ...s, readings: null })),
      flows: { production: series(JUNE_NOON, 0), consumption: series(JUNE_NOON, 800) },
    };
    const results = runWiringChecks(input);
    expect(statusOf(results, 'productionVsClearSky')).toEqual(['fail']);
    expect(statusOf(results, 'consumptionSign')).toEqual(['pass']);
    expect(statusOf(results, 'gridSign')).toEqual(['notApplicable']);
    expect(statusOf(results, 'energyBalance')).toEqual(['notApplicable']);
  });
});

describe('settings', () => {
  const inZone = (timezone: string): WiringInput => {
    const input = sunnyNoon();
    return { ...input, plant: { ...input.plant, location: { ...input.plant.location, timezone } } };
  };

  test('the zone is proposed from the coordinates', () => {
    expect(proposeTimeZone(46.4983, 11.3548)).toBe('Europe/Rome');
    expect(proposeTimeZone(52.52, 13.4)).toBe('Europe/Berlin');
    expect(proposeTimeZone(27.7, 85.32)).toBe('Asia/Kathmandu');
    expect(proposeTimeZone(40.71, -74.01)).toBe('America/New_York');
    expect(proposeTimeZone(91, 0)).toBeNull();
    expect(proposeTimeZone(Number.NaN, 0)).toBeNull();
  });

  test('Europe/Berlin for Bolzano is a warning (same rules), America/New_York a fail', () => {
    expect(timeZoneCheck(inZone('Europe/Rome')).status).toBe('pass');
    const berlin = timeZoneCheck(inZone('Europe/Berlin'));
    expect(berlin.status).toBe('warning');
    expect(en(berlin.action)).toContain('Europe/Rome');
    const newYork = timeZoneCheck(inZone('America/New_York'));
    expect(newYork.status).toBe('fail');
    expect(en(newYork.finding)).toBe(
      'The coordinates are in Europe/Rome (UTC+02:00 now), not America/New_York (UTC-04:00): local dates and daily figures would be shifted.',
    );
    expect(timeZoneCheck(inZone('Mars/Olympus')).status).toBe('fail');
  });

  test('a zone that agrees today but not all year fails, naming the date', () => {
    // Africa/Casablanca is UTC+1 outside Ramadan, like Europe/Rome in winter, without DST.
    const input = { ...inZone('Africa/Casablanca'), now: Date.parse('2026-01-15T12:00:00Z') };
    const check = timeZoneCheck(input);
    expect(check.status).toBe('fail');
    expect(en(check.finding)).toMatch(/from [A-Z][a-z]{2} \d{1,2}, 2026 they differ/);
  });

  test('PV settings are required where there is a producer', () => {
    const input = sunnyNoon();
    expect(pvSettingsCheck(input).status).toBe('pass');
    expect(pvSettingsCheck({ ...input, plant: { ...input.plant, pv: null } }).status).toBe('fail');
    const kilo = { ...input.plant, pv: { ...input.plant.pv!, peakPowerKw: 8400 } };
    expect(pvSettingsCheck({ ...input, plant: kilo }).status).toBe('fail');
    const large = { ...input.plant, pv: { ...input.plant.pv!, peakPowerKw: 20 } };
    expect(pvSettingsCheck({ ...input, plant: large }).status).toBe('warning');
  });
});

test('a sensor with no reading in the window is not judged', () => {
  const input = sunnyNoon();
  const silent = {
    ...input,
    sensors: [...input.sensors, sensor({ flow: 'PRODUCTION', name: 'Second PV', readings: [] })],
  };
  const checks = neverNegative(silent, 'PRODUCTION');
  expect(checks.map((check) => [check.subject?.name, check.status])).toEqual([
    ['PV meter', 'pass'],
    ['Second PV', 'notApplicable'],
  ]);
});
