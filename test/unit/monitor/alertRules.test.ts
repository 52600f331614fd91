import { describe, expect, test } from 'vitest';
import type { SensorStatus } from '../../../api/schemas/fleet.ts';
import {
  aboveClearSky,
  evaluatePlant,
  gridSign,
  judgeableRules,
  meterUnits,
  noProduction,
  pvHealth,
  sensorSilent,
  socStuck,
  type Finding,
  type PlantSnapshot,
} from '../../../electron/services/monitor/alertRules.ts';
import { wordsOf } from '../../../electron/services/hostText.ts';
import { APP_LOCALES, type AppLocale } from '../../../i18n/locales.ts';
import { createTranslator } from '../../../i18n/translator.ts';

/**
 * Each alert rule on crafted sensor states of a plant in Berlin (9.6 kWp facing south): summer
 * noon and night, the spring DST day, and a plant without PV. A rule says what it found as a
 * message key and raw figures; the words, in English, German and Italian, are the reader's.
 */

/** The finding's message as a reader in that language reads it at `now`. */
const words = (finding: Finding | undefined, locale: AppLocale = 'en', now = NOON) =>
  wordsOf(finding!.message, { t: createTranslator(locale), locale, now });
/** English, German and Italian words of a finding: each exactly, or matching a pattern. */
function expectWords(finding: Finding | undefined, expected: Record<AppLocale, string | RegExp>) {
  for (const locale of APP_LOCALES) {
    const wanted = expected[locale];
    if (typeof wanted === 'string') expect(words(finding, locale)).toBe(wanted);
    else expect(words(finding, locale)).toMatch(wanted);
  }
}
/** Intl puts a no-break space between a number and its unit or % in German. */
const nb = (text: string) => text.replaceAll(' %', '\u00a0%');

const at = (iso: string) => Date.parse(iso);
const NOON = at('2026-06-21T10:00:00Z');
let sensorCount = 0;

function sensor(overrides: Partial<SensorStatus>): SensorStatus {
  sensorCount += 1;
  return {
    sensorUuid: `00000000-0000-4000-8000-${String(sensorCount).padStart(12, '0')}`,
    name: `Sensor ${sensorCount}`,
    deviceUuid: null,
    flow: 'PRODUCTION',
    dataType: 'POWER',
    unit: 'W',
    expectedIntervalSeconds: 60,
    state: 'REPORTING',
    lastReadingAt: '2026-06-21T10:00:00Z',
    lastValue: 1000,
    lastChangedAt: '2026-06-21T10:00:00Z',
    valueAtRest: false,
    coverage24h: 1,
    ...overrides,
  };
}

function berlin(sensors: SensorStatus[] | null, pv = true): PlantSnapshot {
  return {
    plantUuid: '11111111-1111-4111-8111-111111111111',
    name: 'Berlin Dachhaus',
    timezone: 'Europe/Berlin',
    site: pv
      ? {
          latitudeDeg: 52.52,
          longitudeDeg: 13.4,
          altitudeM: 34,
          pv: { peakPowerKw: 9.6, tiltDeg: 30, azimuthDeg: 180, lossesPercent: 14 },
        }
      : null,
    health: null,
    sensors,
  };
}

/** A PV meter at 0 W since `since`, read at `now`. */
const pvAtRest = (since: string, now: string) =>
  sensor({
    name: 'PV inverter',
    lastValue: 0,
    valueAtRest: true,
    lastChangedAt: since,
    lastReadingAt: now,
  });

describe('SENSOR_SILENT', () => {
  test('a silent sensor, with when it last reported in the plant’s zone and its interval', () => {
    const now = at('2026-06-21T10:00:00Z');
    const findings = sensorSilent(
      berlin([
        sensor({ name: 'Grid meter', state: 'SILENT', lastReadingAt: '2026-06-21T08:58:00Z' }),
        sensor({ state: 'REPORTING' }),
        sensor({ state: 'LATE' }),
        sensor({ state: 'NEVER', lastReadingAt: null }),
      ]),
      now,
    );
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ rule: 'SENSOR_SILENT', severity: 'warning' });
    expect(findings[0]!.message).toEqual({
      key: 'monitor.sensorSilent',
      params: {
        sensor: 'Grid meter',
        since: { clock: at('2026-06-21T08:58:00Z'), zone: 'Europe/Berlin' },
        age: { duration: 62 * 60_000 },
        interval: { duration: 60_000 },
      },
    });
    expectWords(findings[0], {
      en: 'Grid meter: no reading since 10:58 AM (1 hr, 2 min); it should report every 1 min',
      de: 'Grid meter: kein Messwert seit 10:58 (1 Std., 2 Min.); er sollte alle 1 Min. melden',
      it: 'Grid meter: nessuna lettura da 10:58 (1 h e 2 min); dovrebbe trasmettere ogni 1 min',
    });
    expect(findings[0]!.link).toEqual({
      view: 'history',
      start: '2026-06-21T10:28',
      end: '2026-06-21T12:15',
      granularity: 'minutes',
    });
  });
});

describe('PV_HEALTH', () => {
  const withHealth = (status: 'HEALTHY' | 'DEGRADED' | 'FAULT' | 'NO_DATA', percent: number) => ({
    ...berlin([]),
    health: { status, performancePercent: percent },
  });

  test('DEGRADED is a warning and FAULT critical, with the performance measured', () => {
    const degraded = pvHealth(withHealth('DEGRADED', 58.4));
    expect(degraded).toEqual([
      expect.objectContaining({
        severity: 'warning',
        message: {
          key: 'monitor.pvHealthPerformance',
          params: {
            status: { key: 'monitor.healthStatus.DEGRADED' },
            performance: { percent: 0.584 },
          },
        },
      }),
    ]);
    expectWords(degraded[0], {
      en: 'PV health over the last 7 days is DEGRADED: 58% of the expected energy',
      de: nb('PV-Zustand der letzten 7 Tage: BEEINTRÄCHTIGT, 58 % des erwarteten Ertrags'),
      it: "Stato FV degli ultimi 7 giorni: DEGRADATO, 58% dell'energia attesa",
    });
    const fault = pvHealth({
      ...berlin([]),
      health: { status: 'FAULT', performancePercent: null },
    });
    expect(fault[0]!.severity).toBe('critical');
    expect(words(fault[0])).toBe('PV health over the last 7 days is FAULT');
    expect(words(fault[0], 'it')).toBe('Stato FV degli ultimi 7 giorni: GUASTO');
  });

  test('HEALTHY, NO_DATA and an unknown health raise nothing', () => {
    expect(pvHealth(withHealth('HEALTHY', 97))).toEqual([]);
    expect(pvHealth(withHealth('NO_DATA', 0))).toEqual([]);
    expect(pvHealth(berlin([]))).toEqual([]);
  });
});

describe('NO_PRODUCTION', () => {
  test('at rest for 90 minutes of a summer late morning: critical, with clear sky’s figure', () => {
    const now = at('2026-06-21T10:00:00Z');
    const findings = noProduction(
      berlin([pvAtRest('2026-06-21T08:30:00Z', '2026-06-21T10:00:00Z')]),
      now,
    );
    expect(findings).toHaveLength(1);
    expect(findings[0]!.severity).toBe('critical');
    expect(findings[0]!.message).toMatchObject({
      key: 'monitor.noProduction',
      params: {
        since: { clock: at('2026-06-21T08:30:00Z'), zone: 'Europe/Berlin' },
        daylight: { duration: 90 * 60_000 },
        peak: { number: 9.6 },
      },
    });
    expectWords(findings[0], {
      en: /^No production since 10:30 AM: 1 hr, 30 min of daylight at rest, while clear sky allows \d\.\d kW now \(\d+% of 9\.6 kWp\)$/,
      de: /^Keine Erzeugung seit 10:30: 1 Std\., 30 Min\. Tageslicht ohne Leistung, obwohl klarer Himmel jetzt \d,\d kW erlaubt \(\d+\u00a0% von 9,6 kWp\)$/,
      it: /^Nessuna produzione da 10:30: 1 h e 30 min di luce diurna a riposo, mentre il cielo sereno consente ora \d,\d kW \(\d+% di 9,6 kWp\)$/,
    });
  });

  test('45 minutes are not yet an hour', () => {
    const now = at('2026-06-21T10:00:00Z');
    expect(
      noProduction(berlin([pvAtRest('2026-06-21T09:15:00Z', '2026-06-21T10:00:00Z')]), now),
    ).toEqual([]);
  });

  test('the night does not count: at rest since sunset, read at 02:00', () => {
    const now = at('2026-06-22T00:00:00Z');
    expect(
      noProduction(berlin([pvAtRest('2026-06-21T19:45:00Z', '2026-06-22T00:00:00Z')]), now),
    ).toEqual([]);
  });

  test('dawn does not count: clear sky is below 10 % of peak at 05:15', () => {
    const now = at('2026-06-21T03:15:00Z');
    expect(
      noProduction(berlin([pvAtRest('2026-06-20T19:45:00Z', '2026-06-21T03:15:00Z')]), now),
    ).toEqual([]);
  });

  test('the spring DST day: local times after the change are right, the night before stays quiet', () => {
    // 2026-03-29: clocks go from 02:00 to 03:00 in Berlin; 07:00Z is 09:00 CEST.
    const morning = noProduction(
      berlin([pvAtRest('2026-03-29T07:00:00Z', '2026-03-29T08:30:00Z')]),
      at('2026-03-29T08:30:00Z'),
    );
    expect(words(morning[0], 'en', at('2026-03-29T08:30:00Z'))).toMatch(
      /^No production since 9:00 AM: 1 hr, 30 min of daylight/,
    );
    expect(words(morning[0], 'de', at('2026-03-29T08:30:00Z'))).toMatch(
      /^Keine Erzeugung seit 09:00: 1 Std\., 30 Min\. Tageslicht/,
    );
    expect(
      noProduction(
        berlin([pvAtRest('2026-03-29T00:30:00Z', '2026-03-29T01:30:00Z')]),
        at('2026-03-29T01:30:00Z'),
      ),
    ).toEqual([]);
  });

  test('a plant without PV, a producing meter or a silent one raise nothing', () => {
    const now = at('2026-06-21T10:00:00Z');
    const resting = pvAtRest('2026-06-21T07:00:00Z', '2026-06-21T10:00:00Z');
    expect(noProduction(berlin([resting], false), now)).toEqual([]);
    expect(
      noProduction(berlin([{ ...resting, valueAtRest: false, lastValue: 3000 }]), now),
    ).toEqual([]);
    expect(noProduction(berlin([{ ...resting, state: 'SILENT' }]), now)).toEqual([]);
  });
});

describe('ABOVE_CLEAR_SKY', () => {
  const now = at('2026-06-21T10:00:00Z');
  test('15 kW from 9.6 kWp at noon is more than clear sky allows', () => {
    const findings = aboveClearSky(
      berlin([sensor({ name: 'PV inverter', lastValue: 15_000 })]),
      now,
    );
    expect(findings).toHaveLength(1);
    expect(findings[0]!.message).toMatchObject({
      key: 'monitor.aboveClearSky',
      params: { produced: { power: 15_000 }, peak: { number: 9.6 } },
    });
    expectWords(findings[0], {
      en: /^Production 15 kW at 12:00 PM is above the \d\.\d kW clear sky allows for 9\.6 kWp \(\d\.\d×\): check the meter's unit and the plant's peak power$/,
      de: /^Die Erzeugung von 15 kW \(12:00\) liegt über den \d,\d kW, die klarer Himmel bei 9,6 kWp erlaubt \(\d,\d×\): Einheit des Zählers und Spitzenleistung der Anlage prüfen$/,
      it: /^La produzione di 15 kW \(12:00\) supera i \d,\d kW consentiti dal cielo sereno per 9,6 kWp \(\d,\d×\): verificare/,
    });
  });

  test('what clear sky allows is fine, also a kW meter', () => {
    expect(aboveClearSky(berlin([sensor({ lastValue: 7000 })]), now)).toEqual([]);
    expect(aboveClearSky(berlin([sensor({ lastValue: 7, unit: 'kW' })]), now)).toEqual([]);
  });

  test('at night, 2 kW of production is impossible', () => {
    const night = at('2026-06-21T23:00:00Z');
    expect(
      aboveClearSky(
        berlin([sensor({ lastValue: 2000, lastReadingAt: '2026-06-21T23:00:00Z' })]),
        night,
      ),
    ).toHaveLength(1);
    expect(
      aboveClearSky(
        berlin([sensor({ lastValue: 0, lastReadingAt: '2026-06-21T23:00:00Z' })]),
        night,
      ),
    ).toEqual([]);
  });

  test('no PV settings: nothing to compare with', () => {
    expect(aboveClearSky(berlin([sensor({ lastValue: 15_000 })], false), now)).toEqual([]);
  });
});

/** Meters of a balance: consumption = production + grid + storage. */
function balance(values: {
  production?: number;
  consumption: number;
  grid: number;
  storage?: number;
}) {
  const meters = [
    sensor({ name: 'Consumption', flow: 'CONSUMPTION', lastValue: values.consumption }),
    sensor({ name: 'Grid meter', flow: 'GRID', lastValue: values.grid }),
  ];
  if (values.production !== undefined) {
    meters.push(sensor({ name: 'PV inverter', flow: 'PRODUCTION', lastValue: values.production }));
  }
  if (values.storage !== undefined) {
    meters.push(sensor({ name: 'Battery', flow: 'STORAGE', lastValue: values.storage }));
  }
  return meters;
}

describe('GRID_SIGN', () => {
  const now = at('2026-06-21T10:00:00Z');
  test('import while production exceeds consumption: a reversed current transformer', () => {
    const findings = gridSign(
      berlin(balance({ production: 5000, consumption: 1000, grid: 4000 })),
      now,
    );
    expect(findings).toHaveLength(1);
    const kw = (key: string, watts: number) => ({ key, params: { power: { power: watts } } });
    expect(findings[0]!.message).toEqual({
      key: 'monitor.gridSign',
      params: {
        reading: kw('monitor.gridImport', 4000),
        balance: {
          list: [kw('monitor.balance.consumption', 1000), kw('monitor.balance.production', 5000)],
        },
        expected: kw('monitor.gridExport', 4000),
      },
    });
    expectWords(findings[0], {
      en: 'Grid meter reads 4 kW import while consumption 1 kW, production 5 kW mean 4 kW export: is its current transformer mounted backwards?',
      de: 'Der Netzzähler zeigt 4 kW Bezug, doch bei Verbrauch 1 kW, Erzeugung 5 kW wären 4 kW Einspeisung zu erwarten: Ist sein Stromwandler verkehrt herum montiert?',
      it: 'Il contatore di rete indica 4 kW in prelievo, ma con consumo 1 kW, produzione 5 kW ci si attende 4 kW in immissione: il trasformatore amperometrico è montato al contrario?',
    });
  });

  test('export at night while the house consumes is the same fault', () => {
    const night = gridSign(
      berlin(balance({ production: 0, consumption: 800, grid: -800, storage: -1500 })),
      now,
    );
    expect(words(night[0])).toBe(
      'Grid meter reads 800 W export while consumption 800 W, production 0 W, battery -1.5 kW mean 2.3 kW import: is its current transformer mounted backwards?',
    );
    expect(words(night[0], 'de')).toMatch(/Batterie -1,5 kW wären 2,3 kW Bezug zu erwarten/);
    expect(words(night[0], 'it')).toMatch(/batteria -1,5 kW ci si attende 2,3 kW in prelievo/);
  });

  test('a balance that closes, small flows and meters read at different moments raise nothing', () => {
    expect(
      gridSign(berlin(balance({ production: 5000, consumption: 1000, grid: -4000 })), now),
    ).toEqual([]);
    expect(
      gridSign(berlin(balance({ production: 300, consumption: 200, grid: 100 })), now),
    ).toEqual([]);
    const apart = balance({ production: 5000, consumption: 1000, grid: 4000 });
    apart[1] = { ...apart[1]!, lastReadingAt: '2026-06-21T09:50:00Z' };
    expect(gridSign(berlin(apart), now)).toEqual([]);
  });

  test('a battery is part of the balance', () => {
    // Charging 3 kW of the 5 kW produced, 1 kW consumed: 1 kW export expected.
    expect(
      gridSign(
        berlin(balance({ production: 5000, consumption: 1000, grid: -1000, storage: -3000 })),
        now,
      ),
    ).toEqual([]);
  });
});

describe('METER_UNITS', () => {
  test('a consumption meter reading kW as W: a thousand times below the balance', () => {
    const findings = meterUnits(
      berlin(balance({ production: 3000, consumption: 0.5, grid: -1500, storage: -1000 })),
    );
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ rule: 'METER_UNITS', subjectName: 'Consumption' });
    expect(findings[0]!.message).toEqual({
      key: 'monitor.meterUnits',
      params: {
        sensor: 'Consumption',
        reading: { power: 0.5 },
        expected: { power: 500 },
        factor: 1000,
      },
    });
    expectWords(findings[0], {
      en: "Consumption reads 0.5 W where the plant's other meters say 500 W (1/1000): does it report kW where W is expected?",
      de: 'Consumption zeigt 0,5 W, wo die übrigen Zähler der Anlage 500 W ergeben (1/1000): Meldet er kW, wo W erwartet wird?',
      it: "Consumption indica 0,5 W dove gli altri contatori dell'impianto danno 500 W (1/1000): trasmette kW dove sono attesi W?",
    });
  });

  test('meters that agree, or two meters only, raise nothing', () => {
    expect(
      meterUnits(
        berlin(balance({ production: 3000, consumption: 500, grid: -1500, storage: -1000 })),
      ),
    ).toEqual([]);
    expect(meterUnits(berlin(balance({ consumption: 0.5, grid: 500 })))).toEqual([]);
  });
});

describe('SOC_STUCK', () => {
  const now = at('2026-06-21T10:00:00Z');
  const soc = (overrides: Partial<SensorStatus>) =>
    sensor({
      name: 'Battery state of charge',
      flow: 'STORAGE',
      dataType: 'STATE_OF_CHARGE',
      unit: '%',
      lastValue: 57,
      ...overrides,
    });

  test('unchanged for 26 hours while reporting', () => {
    const findings = socStuck(
      berlin([soc({ lastChangedAt: '2026-06-20T08:00:00Z', lastValue: 57.5 })]),
      now,
    );
    expect(findings).toHaveLength(1);
    expect(findings[0]!.message).toEqual({
      key: 'monitor.socStuck',
      params: {
        sensor: 'Battery state of charge',
        value: { number: 57.5 },
        unit: '%',
        since: { clock: at('2026-06-20T08:00:00Z'), zone: 'Europe/Berlin' },
        age: { duration: 26 * 3_600_000 },
      },
    });
    expectWords(findings[0], {
      en: 'Battery state of charge has read 57.5 % since Sat 10:00 AM (26 hr) while reporting: a battery in use changes its charge',
      de: 'Battery state of charge zeigt seit Sa 10:00 (26 Std.) unverändert 57,5 %, obwohl er meldet: Eine genutzte Batterie ändert ihren Ladezustand',
      it: 'Battery state of charge indica 57,5 % da sab 10:00 (26 h) pur trasmettendo: una batteria in uso cambia il suo stato di carica',
    });
    // A week later the day is named in full.
    expect(words(findings[0], 'de', at('2026-06-28T10:00:00Z'))).toMatch(
      /seit 20\.06\.2026, 10:00/,
    );
  });

  test('23 hours, or a silent sensor, are not this alert', () => {
    expect(socStuck(berlin([soc({ lastChangedAt: '2026-06-20T11:00:00Z' })]), now)).toEqual([]);
    expect(
      socStuck(berlin([soc({ lastChangedAt: '2026-06-19T08:00:00Z', state: 'SILENT' })]), now),
    ).toEqual([]);
  });
});

describe('all rules', () => {
  test('without sensor statuses only PV health is judged', () => {
    expect([
      ...judgeableRules({ ...berlin(null), health: { status: 'HEALTHY', performancePercent: 99 } }),
    ]).toEqual(['PV_HEALTH']);
    expect(judgeableRules(berlin([])).size).toBe(6);
  });

  test('a healthy plant at noon raises nothing', () => {
    const now = at('2026-06-21T10:00:00Z');
    expect(
      evaluatePlant(
        {
          ...berlin(balance({ production: 6000, consumption: 1500, grid: -4500 })),
          health: { status: 'HEALTHY', performancePercent: 96 },
        },
        now,
      ),
    ).toEqual([]);
  });
});
