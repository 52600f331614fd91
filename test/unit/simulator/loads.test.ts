import { describe, expect, test } from 'vitest';
import { applianceDay, profileLoadDay } from '../../../server/simulator/deviceLoad.ts';
import { chargingSession, evChargerDay } from '../../../server/simulator/evCharger.ts';
import {
  coefficientOfPerformance,
  heatPumpDay,
  spaceHeatingDemandW,
} from '../../../server/simulator/heatPump.ts';
import { householdDay } from '../../../server/simulator/householdLoad.ts';
import { dutyCycledPowerW, profilePowerW } from '../../../server/simulator/loadShapes.ts';
import { PlantClock } from '../../../server/simulator/plantClock.ts';
import type { WeatherDay } from '../../../server/simulator/weather.ts';
import { dayIndexOf, HOUSEHOLD_PROFILE, sumKwh } from './simulatorFixture.ts';

const clock = new PlantClock('Europe/Rome');

/** A day of constant weather, to see one cause at a time. */
function steadyWeather(temperatureC: number): WeatherDay {
  return {
    temperatureC: new Float64Array(1440).fill(temperatureC),
    clearSkyIndex: new Float64Array(1440).fill(1),
    beamTransmittance: new Float64Array(1440).fill(1),
  };
}

const input = (dayIndex: number, temperatureC = 10, seed = 7) => ({
  seed,
  dayIndex,
  clock,
  weather: steadyWeather(temperatureC),
});

describe('heat pump', () => {
  const pump = { kind: 'heatPump' as const, ratedPowerW: 3200 };
  const day = dayIndexOf(2026, 1, 14);

  test('uses more energy on cold days, and only hot water and standby above 15 °C', () => {
    const energies = [-10, -2, 5, 12, 20].map((celsius) =>
      sumKwh(heatPumpDay(pump, input(day, celsius))),
    );
    for (let index = 1; index < energies.length; index++) {
      expect(energies[index]!).toBeLessThan(energies[index - 1]!);
    }
    // 20 °C: no space heating; hot water (25–70 minutes at 2.4 kW) plus 10 W standby.
    expect(energies[4]!).toBeGreaterThan(0.9);
    expect(energies[4]!).toBeLessThan(3.2);
    expect(energies[0]!).toBeGreaterThan(25);
  });

  test('never exceeds its rated power', () => {
    const watts = heatPumpDay(pump, input(day, -25));
    expect(Math.max(...watts)).toBeLessThanOrEqual(3200);
    expect(Math.max(...watts)).toBe(3200);
  });

  test('COP falls with colder air', () => {
    expect(coefficientOfPerformance(-10)).toBeLessThan(coefficientOfPerformance(0));
    expect(coefficientOfPerformance(0)).toBeLessThan(coefficientOfPerformance(7));
    expect(coefficientOfPerformance(7)).toBeCloseTo(3.895, 3);
  });

  test('cycles on and off in mild weather, keeping the energy of the demand', () => {
    const watts = heatPumpDay(pump, input(day, 12));
    const minimumW = 3200 * 0.3;
    const demandKwh = (hour: number) => spaceHeatingDemandW(3200, 12, hour) / 1000;
    // Between 10:00 and 14:00 local (09:00–13:00 UTC in winter) only space heating runs.
    const window = watts.slice(9 * 60, 13 * 60);
    expect(window.some((value) => value === minimumW)).toBe(true);
    expect(window.some((value) => value === 10)).toBe(true);
    const runKwh = [...window].reduce((sum, value) => sum + (value > 10 ? value : 0), 0) / 60_000;
    expect(runKwh).toBeCloseTo(demandKwh(12) * 4, 1);
  });
});

describe('EV charger', () => {
  test('a session delivers its energy at the charging power, some evenings only', () => {
    const wallbox = { kind: 'ev' as const, chargingPowerW: 11_000 };
    let sessions = 0;
    for (let dayIndex = dayIndexOf(2026, 3, 2); dayIndex < dayIndexOf(2026, 3, 30); dayIndex++) {
      const localDay = dayIndex; // local and UTC dates agree at 17:00–21:00 in Rome
      const session = chargingSession(7, localDay, (day, minute) => clock.wallClockMs(day, minute));
      const watts = evChargerDay(wallbox, input(dayIndex));
      const nextDay = evChargerDay(wallbox, input(dayIndex + 1));
      expect(Math.max(...watts)).toBeLessThanOrEqual(11_000);
      if (!session) continue;
      sessions++;
      const arrivalHour = clock.localHour(session.startMs);
      expect(arrivalHour).toBeGreaterThanOrEqual(17);
      expect(arrivalHour).toBeLessThanOrEqual(21);
      expect(session.energyKwh).toBeGreaterThanOrEqual(6);
      expect(session.energyKwh).toBeLessThanOrEqual(26);
      // All of this evening's session is in this UTC day or just after midnight.
      const previous = chargingSession(7, localDay - 1, (day, minute) =>
        clock.wallClockMs(day, minute),
      );
      const spill = nextDay.slice(0, 3 * 60);
      if (!previous) {
        expect(sumKwh(watts) + sumKwh(spill)).toBeCloseTo(session.energyKwh, 9);
      }
    }
    expect(sessions).toBeGreaterThan(5);
    expect(sessions).toBeLessThan(22);
  });

  test('uses the wallbox power', () => {
    const watts = evChargerDay({ kind: 'ev', chargingPowerW: 3700 }, input(dayIndexOf(2026, 3, 3)));
    expect(Math.max(...watts)).toBeLessThanOrEqual(3700);
  });
});

describe('household base load', () => {
  const load = {
    kind: 'household' as const,
    hourlyProfile: HOUSEHOLD_PROFILE,
    typicalDailyKwh: 8.5,
  };

  test('averages near the signature’s typical daily energy, with appliance spikes', () => {
    let total = 0;
    let spikes = 0;
    const days = 28;
    for (
      let dayIndex = dayIndexOf(2026, 5, 4);
      dayIndex < dayIndexOf(2026, 5, 4) + days;
      dayIndex++
    ) {
      const watts = householdDay(load, input(dayIndex));
      total += sumKwh(watts);
      spikes += watts.filter((value) => value > 1500).length;
    }
    const average = total / days;
    // Day factors average 1 on weekdays and 1.1 at weekends, and the last run of a day overshoots.
    expect(average).toBeGreaterThan(8.5 * 0.9);
    expect(average).toBeLessThan(8.5 * 1.25);
    expect(spikes).toBeGreaterThan(days * 3);
  });

  test('follows the profile: evenings above the small hours', () => {
    const watts = householdDay(load, input(dayIndexOf(2026, 5, 5)));
    const localHourMean = (hour: number) => {
      const utcHour = hour - 2; // CEST
      const slice = watts.slice(utcHour * 60, utcHour * 60 + 60);
      return slice.reduce((sum, value) => sum + value, 0) / 60;
    };
    expect(localHourMean(19)).toBeGreaterThan(localHourMean(3));
  });
});

describe('other consumer devices', () => {
  test('a signature load keeps its typical energy, duty-cycled at its rated power', () => {
    const profile = new Array(24).fill(0);
    profile[7] = 0.5;
    profile[20] = 0.5;
    const load = {
      kind: 'profile' as const,
      hourlyProfile: profile,
      typicalDailyKwh: 4,
      ratedPowerW: 2000,
    };
    let total = 0;
    for (
      let dayIndex = dayIndexOf(2026, 5, 4);
      dayIndex < dayIndexOf(2026, 5, 4) + 20;
      dayIndex++
    ) {
      const watts = profileLoadDay(load, input(dayIndex));
      expect(Math.max(...watts)).toBeLessThanOrEqual(2000);
      total += sumKwh(watts);
    }
    expect(total / 20).toBeGreaterThan(4 * 0.8);
    expect(total / 20).toBeLessThan(4 * 1.2);
  });

  test('a device without a signature is a small cycling appliance', () => {
    const watts = applianceDay(
      { kind: 'appliance', ratedPowerW: null },
      input(dayIndexOf(2026, 5, 4)),
    );
    expect(Math.max(...watts)).toBe(150);
    expect(sumKwh(watts)).toBeCloseTo(0.15 * 0.35 * 24, 1);
  });
});

describe('load shapes', () => {
  test('duty cycling keeps the mean power of each window', () => {
    for (const meanW of [0, 100, 333, 900, 1000, 1500]) {
      let sum = 0;
      for (let minute = 0; minute < 15; minute++)
        sum += dutyCycledPowerW(meanW, 1000, 15, minute, 0.37);
      expect(sum / 15).toBeCloseTo(Math.min(meanW, 1000), 9);
    }
  });

  test('a profile spreads the typical daily energy over the day', () => {
    let wh = 0;
    for (let minute = 0; minute < 1440; minute++) {
      wh += profilePowerW(HOUSEHOLD_PROFILE, 8.5, (minute + 0.5) / 60) / 60;
    }
    expect(wh / 1000).toBeCloseTo(8.5, 2);
  });
});
