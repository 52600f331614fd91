import { DateTime } from 'luxon';
import { describe, expect, test } from 'vitest';
import type { Alert } from '../../../electron/ipc/contract.ts';
import {
  bucketsOf,
  dataCoverage,
  judgeAcceptance,
  openAlerts,
  productionAgainstExpectation,
  windowCoverage,
  windowEnergyKwh,
  type AcceptanceInput,
  type PowerBucket,
} from '../../../electron/services/acceptance/acceptanceChecks.ts';
import type { StoredAcceptanceFinding } from '../../../electron/services/acceptance/acceptanceWording.ts';
import { wordsOf, type StoredText } from '../../../electron/services/hostText.ts';
import type { AppLocale } from '../../../i18n/locales.ts';
import { createTranslator } from '../../../i18n/translator.ts';
import { createPvModel, type PvSite } from '../../../server/domain/index.ts';

/**
 * The acceptance re-check's judgement on crafted series of a plant in Turin (5 kWp facing
 * south): a summer day after commissioning, a night-only window and the polar night, the day
 * DST ends, a plant without PV, and an idle battery.
 */

const HOUR = 3_600_000;
const TURIN: PvSite = {
  latitudeDeg: 45.07,
  longitudeDeg: 7.69,
  altitudeM: 240,
  pv: { peakPowerKw: 5, tiltDeg: 30, azimuthDeg: 180, lossesPercent: 14 },
};
const SUMMER = { startMs: Date.parse('2026-06-21T10:00:00+02:00'), endMs: 0 };
SUMMER.endMs = SUMMER.startMs + 24 * HOUR;

/** Hourly buckets whose mean power is `factor` × what a clear sky gives in that hour. */
function clearSkyShare(site: PvSite, window: AcceptanceInput['window'], factor: number) {
  const model = createPvModel(site);
  const buckets: PowerBucket[] = [];
  for (let at = window.startMs; at < window.endMs; at += HOUR) {
    const kwh = model.clearSkyEnergyKwh(at, at + HOUR, 15);
    buckets.push({ startMs: at, endMs: at + HOUR, value: kwh * 1000 * factor, coverage: 1 });
  }
  return buckets;
}

const constant = (window: AcceptanceInput['window'], watts: number, coverage = 1) =>
  Array.from({ length: Math.ceil((window.endMs - window.startMs) / HOUR) }, (_, index) => ({
    startMs: window.startMs + index * HOUR,
    endMs: window.startMs + (index + 1) * HOUR,
    value: coverage === 0 ? null : watts,
    coverage,
  }));

function input(overrides: Partial<AcceptanceInput> = {}): AcceptanceInput {
  const window = overrides.window ?? SUMMER;
  return {
    window,
    checkedAtMs: window.endMs,
    site: TURIN,
    production: clearSkyShare(TURIN, window, 0.7),
    consumption: constant(window, 400),
    sensors: [
      { name: 'PV', flow: 'PRODUCTION', coverage: 1 },
      { name: 'Grid', flow: 'GRID', coverage: 0.99 },
    ],
    openAlerts: [],
    ...overrides,
  };
}

const alert = (severity: Alert['severity'], message: string) => ({
  severity,
  message,
  muted: false,
});
/** A stored text as an English reader reads it. */
const inWords = (text: StoredText, locale: AppLocale = 'en') =>
  wordsOf(text, { t: createTranslator(locale), locale, now: SUMMER.endMs });
const en = (text: StoredText) => inWords(text);
const figureOf = (finding: StoredAcceptanceFinding, name: string) =>
  finding.figures.find((entry) => en(entry.name) === name)?.value;

describe('production against clear-sky expectation', () => {
  test('a cloudy summer day at 70 % of clear sky passes, with its numbers', () => {
    const finding = productionAgainstExpectation(input());
    expect(finding.status).toBe('pass');
    expect(figureOf(finding, 'production ÷ clear sky')).toBeCloseTo(70, 0);
    expect(figureOf(finding, 'clear-sky expectation')).toBeGreaterThan(20);
    expect(en(finding.finding)).toMatch(/70% of the .* kWh a clear sky allows/);
  });

  test('twice clear sky fails as a wrong unit or peak power', () => {
    const finding = productionAgainstExpectation(
      input({ production: clearSkyShare(TURIN, SUMMER, 2) }),
    );
    expect(finding.status).toBe('fail');
    expect(en(finding.action)).toMatch(/unit .* peak power/);
  });

  test('nothing on a summer day fails as tripped; a kW meter read as W does too', () => {
    expect(productionAgainstExpectation(input({ production: constant(SUMMER, 0) })).status).toBe(
      'fail',
    );
    const kilowatts = clearSkyShare(TURIN, SUMMER, 0.7).map((bucket) => ({
      ...bucket,
      value: bucket.value! / 1000,
    }));
    const finding = productionAgainstExpectation(input({ production: kilowatts }));
    expect(finding.status).toBe('fail');
    expect(en(finding.action)).toMatch(/breaker/);
  });

  test('a tenth of clear sky is a warning (overcast, snow or a partial fault)', () => {
    const finding = productionAgainstExpectation(
      input({ production: clearSkyShare(TURIN, SUMMER, 0.1) }),
    );
    expect(finding.status).toBe('warning');
  });

  test('a night-only window and the polar night are not judged', () => {
    const night = {
      startMs: Date.parse('2026-06-21T23:00:00+02:00'),
      endMs: Date.parse('2026-06-22T04:00:00+02:00'),
    };
    const atNight = productionAgainstExpectation(
      input({ window: night, production: constant(night, 0) }),
    );
    expect(atNight.status).toBe('notApplicable');
    expect(figureOf(atNight, 'clear-sky expectation')).toBe(0);

    const tromso: PvSite = { ...TURIN, latitudeDeg: 69.65, longitudeDeg: 18.96 };
    const polar = {
      startMs: Date.parse('2026-12-20T12:00:00+01:00'),
      endMs: Date.parse('2026-12-21T12:00:00+01:00'),
    };
    const finding = productionAgainstExpectation(
      input({ site: tromso, window: polar, production: constant(polar, 0) }),
    );
    expect(finding.status).toBe('notApplicable');
    expect(en(finding.finding)).toMatch(/almost no light/);
  });

  test('a plant without PV has nothing to expect; without production data, nothing to judge', () => {
    const noPv = productionAgainstExpectation(input({ site: null, production: null }));
    expect(noPv.status).toBe('notApplicable');
    expect(en(noPv.finding)).toMatch(/no PV settings/);
    expect(productionAgainstExpectation(input({ production: null })).status).toBe('notApplicable');
    const sparse = productionAgainstExpectation(input({ production: constant(SUMMER, 0, 0.3) }));
    expect(sparse.status).toBe('notApplicable');
    expect(en(sparse.finding)).toMatch(/30%/);
  });
});

describe('the day DST ends (Rome, 2026-10-25: 25 local hours)', () => {
  const window = {
    startMs: Date.parse('2026-10-24T12:00:00+02:00'),
    endMs: Date.parse('2026-10-25T11:00:00+01:00'),
  };

  test('the window is 24 real hours, its repeated local hour counted once each', () => {
    expect(window.endMs - window.startMs).toBe(24 * HOUR);
    const points = [];
    for (let at = window.startMs; at < window.endMs; at += HOUR) {
      // As the server writes them: plant-local with the offset of the moment.
      const timestamp = DateTime.fromMillis(at, { zone: 'Europe/Rome' }).toISO()!;
      points.push({ timestamp, value: 1000, coverage: 1 });
    }
    const twoOClock = points.filter((point) => point.timestamp.startsWith('2026-10-25T02:00'));
    expect(twoOClock.map((point) => point.timestamp)).toEqual([
      '2026-10-25T02:00:00.000+02:00',
      '2026-10-25T02:00:00.000+01:00',
    ]);
    const series = {
      to: DateTime.fromMillis(window.endMs, { zone: 'Europe/Rome' }).toISO()!,
      points,
    };
    const buckets = bucketsOf(series);
    expect(buckets).toHaveLength(24);
    expect(buckets.every((bucket) => bucket.endMs - bucket.startMs === HOUR)).toBe(true);
    expect(windowEnergyKwh(buckets, window)).toBeCloseTo(24, 9);
    expect(windowCoverage(buckets, window)).toBe(1);
  });

  test('production judged on the DST day as on any other', () => {
    const finding = productionAgainstExpectation(
      input({ window, production: clearSkyShare(TURIN, window, 0.5) }),
    );
    expect(finding.status).toBe('pass');
    expect(figureOf(finding, 'production ÷ clear sky')).toBeCloseTo(50, 0);
  });
});

describe('data coverage', () => {
  test('buckets wider than the window count only their overlap', () => {
    const window = { startMs: SUMMER.startMs + HOUR / 2, endMs: SUMMER.startMs + HOUR * 1.5 };
    const buckets = constant({ startMs: SUMMER.startMs, endMs: SUMMER.startMs + 2 * HOUR }, 1000);
    buckets[1]!.coverage = 0;
    buckets[1]!.value = null;
    expect(windowCoverage(buckets, window)).toBeCloseTo(0.5, 9);
    expect(windowEnergyKwh(buckets, window)).toBeCloseTo(0.5, 9);
  });

  test('an idle battery (0 W all day) still reports: its coverage passes', () => {
    const finding = dataCoverage(
      input({ sensors: [{ name: 'Battery', flow: 'STORAGE', coverage: 1 }] }),
    );
    expect(finding.status).toBe('pass');
    expect(figureOf(finding, 'Battery, last 24 h')).toBe(100);
  });

  test('a sensor at 90 % warns, at 50 % fails, naming it and its share', () => {
    const warn = dataCoverage(
      input({ sensors: [{ name: 'Heat pump', flow: 'CONSUMPTION', coverage: 0.9 }] }),
    );
    expect(warn.status).toBe('warning');
    expect(en(warn.finding)).toContain('“Heat pump” 90%');
    const fail = dataCoverage(input({ consumption: constant(SUMMER, 400, 0.5) }));
    expect(fail.status).toBe('fail');
    expect(en(fail.finding)).toContain('consumption 50%');
  });

  test('against a server without sensor statuses: the plant totals, said so', () => {
    const finding = dataCoverage(input({ sensors: null }));
    expect(finding.status).toBe('pass');
    expect(en(finding.finding)).toMatch(/plant totals only/);
    expect(finding.figures.map((entry) => en(entry.name))).toEqual([
      'production (plant), window',
      'consumption (plant), window',
    ]);
  });

  test('a re-check run late says which 24 hours the per-sensor shares are of', () => {
    const late = dataCoverage(input({ checkedAtMs: SUMMER.endMs + 30 * HOUR }));
    expect(en(late.finding)).toMatch(/ran late/);
  });

  test('nothing measured at all is not judged', () => {
    expect(dataCoverage(input({ production: null, consumption: null, sensors: [] })).status).toBe(
      'notApplicable',
    );
  });
});

describe('open alerts and the verdict', () => {
  test('none passes; a warning warns; a critical one fails', () => {
    expect(openAlerts(input()).status).toBe('pass');
    expect(openAlerts(input({ openAlerts: [alert('warning', 'PV health degraded')] })).status).toBe(
      'warning',
    );
    const finding = openAlerts(
      input({
        openAlerts: [alert('warning', 'PV health degraded'), alert('critical', '“PV” is silent')],
      }),
    );
    expect(finding.status).toBe('fail');
    expect(en(finding.finding)).toBe('Open: “PV” is silent; PV health degraded.');
    expect(figureOf(finding, 'open critical alerts')).toBe(1);
  });

  test('the verdict is the worst finding; not applicable counts as a pass', () => {
    const noPv = judgeAcceptance(input({ site: null, production: null }));
    expect(noPv.status).toBe('pass');
    expect(noPv.findings.map((finding) => finding.status)).toEqual([
      'pass',
      'notApplicable',
      'pass',
    ]);
    expect(noPv.windowStart).toBe('2026-06-21T08:00:00.000Z');
    expect(noPv.windowEnd).toBe('2026-06-22T08:00:00.000Z');
    const failing = judgeAcceptance(input({ openAlerts: [alert('critical', 'tripped')] }));
    expect(failing.status).toBe('fail');
  });
});

describe('in the reader’s language', () => {
  const gaps = dataCoverage(
    input({ sensors: [{ name: 'Heat pump', flow: 'CONSUMPTION', coverage: 0.905 }] }),
  );

  test('kept as keys and raw figures, worded in English, German and Italian', () => {
    expect(gaps.title).toEqual({ key: 'acceptance.title.dataCoverage' });
    expect(en(gaps.finding)).toBe(
      'Gaps in the data: “Heat pump” 90.5% (pass from 95%, fail below 80%).',
    );
    expect(inWords(gaps.finding, 'de')).toBe(
      'Lücken in den Daten: „Heat pump“ 90,5\u00a0% (bestanden ab 95\u00a0%, nicht bestanden unter 80\u00a0%).',
    );
    expect(inWords(gaps.finding, 'it')).toBe(
      'Lacune nei dati: «Heat pump» 90,5% (superato con almeno 95%, non superato sotto 80%).',
    );
    expect(gaps.figures.map((figure) => inWords(figure.name, 'de'))).toEqual([
      'Erzeugung (Anlage), Zeitfenster',
      'Verbrauch (Anlage), Zeitfenster',
      'Heat pump, letzte 24 Std.',
    ]);

    const pass = productionAgainstExpectation(input());
    expect(inWords(pass.title, 'it')).toBe("Produzione rispetto all'attesa a cielo sereno");
    expect(inWords(pass.finding, 'de')).toMatch(
      /^\d+,\d kWh erzeugt, 70\u00a0% der \d+,\d kWh, die klarer Himmel erlaubt \(Wolken senken den Wert\)\.$/,
    );
    expect(inWords(pass.finding, 'it')).toMatch(
      /^\d+,\d kWh prodotti, pari a 70% dei \d+,\d kWh consentiti dal cielo sereno/,
    );
  });

  test('more open alerts than listed: a plural in each language', () => {
    const four = ['a', 'b', 'c', 'd'].map((name) => alert('warning', `${name} silent`));
    const five = [...four, alert('warning', 'e silent')];
    const one = openAlerts(input({ openAlerts: four })).finding;
    const two = openAlerts(input({ openAlerts: five })).finding;
    expect(en(one)).toBe('Open: a silent; b silent; c silent and 1 more.');
    expect(inWords(one, 'de')).toBe('Offen: a silent; b silent; c silent und 1 weiterer.');
    expect(inWords(two, 'de')).toBe('Offen: a silent; b silent; c silent und 2 weitere.');
    expect(inWords(one, 'it')).toBe('Aperti: a silent; b silent; c silent e 1 altro.');
    expect(inWords(two, 'it')).toBe('Aperti: a silent; b silent; c silent e altri 2.');
  });
});
