import { describe, expect, test } from 'vitest';
import {
  chartSeriesToExport,
  csvField,
  csvNumber,
  fileNameOf,
  toCsv,
} from '../../../../renderer/src/charts/csv.ts';
import { seriesToPoints } from '../../../../renderer/src/charts/series.ts';
import { createTranslator } from '../../../../i18n/translator.ts';

const lines = (text: string) => text.split('\r\n');

describe('toCsv', () => {
  test('header with units, union of timestamps in order, empty cells for null and missing', () => {
    const csv = toCsv(
      [
        {
          label: 'Consumption',
          unit: 'W',
          points: [
            { x: Date.UTC(2026, 2, 30, 9), y: null },
            { x: Date.UTC(2026, 2, 30, 8), y: 812.5 },
          ],
        },
        {
          label: 'Production',
          unit: 'W',
          points: [
            { x: Date.UTC(2026, 2, 30, 10), y: 0 },
            { x: Date.UTC(2026, 2, 30, 8), y: 1200 },
          ],
        },
      ],
      'Europe/Rome',
    );
    expect(csv).toBe(
      'timestamp,Consumption (W),Production (W)\r\n' +
        '2026-03-30T10:00:00+02:00,812.5,1200\r\n' +
        '2026-03-30T11:00:00+02:00,,\r\n' +
        '2026-03-30T12:00:00+02:00,,0\r\n',
    );
  });

  test('the DST-end day keeps both 02:00 rows with their own offsets', () => {
    const points = seriesToPoints({
      points: [
        { timestamp: '2026-10-25T01:00:00+02:00', value: 1, coverage: 1 },
        { timestamp: '2026-10-25T02:00:00+02:00', value: 2, coverage: 1 },
        { timestamp: '2026-10-25T02:00:00+01:00', value: 3, coverage: 1 },
        { timestamp: '2026-10-25T03:00:00+01:00', value: null, coverage: 0 },
      ],
    });
    expect(lines(toCsv([{ label: 'Consumption', unit: 'kWh', points }], 'Europe/Rome'))).toEqual([
      'timestamp,Consumption (kWh)',
      '2026-10-25T01:00:00+02:00,1',
      '2026-10-25T02:00:00+02:00,2',
      '2026-10-25T02:00:00+01:00,3',
      '2026-10-25T03:00:00+01:00,',
      '',
    ]);
  });

  test('the DST-start day has no 02:00 row', () => {
    const points = [0, 1, 2].map((k) => ({ x: Date.UTC(2026, 2, 29, k), y: k }));
    expect(lines(toCsv([{ label: 'P', unit: 'kWh', points }], 'Europe/Rome'))).toEqual([
      'timestamp,P (kWh)',
      '2026-03-29T01:00:00+01:00,0',
      '2026-03-29T03:00:00+02:00,1',
      '2026-03-29T04:00:00+02:00,2',
      '',
    ]);
  });

  test('+05:45 offsets and the API timestamps round-trip exactly', () => {
    const api = [
      { timestamp: '2026-03-29T00:00:00+05:45', value: 0.123456, coverage: 1 },
      { timestamp: '2026-03-29T01:00:00+05:45', value: 12, coverage: 1 },
    ];
    const csv = toCsv(
      [{ label: 'Production', unit: 'kWh', points: seriesToPoints({ points: api }) }],
      'Asia/Kathmandu',
    );
    expect(lines(csv).slice(1, 3)).toEqual(api.map((p) => `${p.timestamp},${p.value}`));
  });

  test('RFC 4180 quoting of labels and formula-looking labels', () => {
    const csv = toCsv(
      [
        { label: 'Heat pump, "north"', unit: 'kWh', points: [{ x: 0, y: 1 }] },
        { label: 'line\nbreak', unit: '', points: [{ x: 0, y: 2 }] },
        { label: '=HYPERLINK("x")', unit: 'kWh', points: [{ x: 0, y: 3 }] },
      ],
      'UTC',
    );
    expect(csv).toBe(
      'timestamp,"Heat pump, ""north"" (kWh)","line\nbreak","\'=HYPERLINK(""x"") (kWh)"\r\n' +
        '1970-01-01T00:00:00+00:00,1,2,3\r\n',
    );
  });

  test('numbers: no float noise, 6 decimals at most, plain notation', () => {
    expect(csvNumber(0.1 + 0.2)).toBe('0.3');
    expect(csvNumber(1.2000000000000002)).toBe('1.2');
    expect(csvNumber(1e-7)).toBe('0');
    expect(csvNumber(0.000001)).toBe('0.000001');
    expect(csvNumber(-0.0000001)).toBe('0');
    expect(csvNumber(123456789)).toBe('123456789');
    expect(csvNumber(-2.5)).toBe('-2.5');
    expect(csvNumber(2.345, 2)).toBe('2.35');
    expect(csvNumber(null)).toBe('');
    expect(csvNumber(Number.NaN)).toBe('');
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a"b')).toBe('"a""b"');
  });

  test('decimals option and an empty chart', () => {
    expect(
      toCsv([{ label: 'X', unit: 'W', points: [{ x: 0, y: 1.23456 }] }], 'UTC', { decimals: 2 }),
    ).toBe('timestamp,X (W)\r\n1970-01-01T00:00:00+00:00,1.23\r\n');
    expect(toCsv([], 'UTC')).toBe('timestamp\r\n');
  });
});

describe('chartSeriesToExport', () => {
  test('a band becomes two more columns after its series', () => {
    const exported = chartSeriesToExport([
      {
        label: 'Forecast',
        role: 'forecast',
        unit: 'kWh',
        points: [
          { x: 0, y: 1 },
          { x: 1, y: 2 },
        ],
        band: [
          { lower: 0.5, upper: 1.5 },
          { lower: 1.5, upper: 2.5 },
        ],
      },
      { label: 'Actual', role: 'actual', unit: 'kWh', points: [{ x: 0, y: 1.1 }] },
    ]);
    expect(exported.map((series) => series.label)).toEqual([
      'Forecast',
      'Forecast lower 80 %',
      'Forecast upper 80 %',
      'Actual',
    ]);
    expect(exported[2]!.points).toEqual([
      { x: 0, y: 1.5 },
      { x: 1, y: 2.5 },
    ]);
    expect(lines(toCsv(exported, 'UTC'))[0]).toBe(
      'timestamp,Forecast (kWh),Forecast lower 80 % (kWh),Forecast upper 80 % (kWh),Actual (kWh)',
    );
  });
});

describe('in German and Italian', () => {
  const forecast = {
    label: 'Prognose',
    role: 'forecast',
    unit: 'kWh',
    points: [
      { x: Date.UTC(2026, 2, 29, 10), y: 1234.5 },
      { x: Date.UTC(2026, 2, 29, 11), y: 0.25 },
    ],
    band: [
      { lower: 1000.125, upper: 1500 },
      { lower: 0.1, upper: 0.5 },
    ],
  };

  test('only the header follows the language: dot decimals, ISO timestamps, no grouping', () => {
    const t = createTranslator('de');
    const csv = toCsv(chartSeriesToExport([forecast], t), 'Europe/Rome', { t });
    expect(csv).toBe(
      'Zeitstempel,Prognose (kWh),Prognose untere Grenze 80 % (kWh),Prognose obere Grenze 80 % (kWh)\r\n' +
        '2026-03-29T12:00:00+02:00,1234.5,1000.125,1500\r\n' +
        '2026-03-29T13:00:00+02:00,0.25,0.1,0.5\r\n',
    );
  });

  test('Italian header', () => {
    const t = createTranslator('it');
    expect(lines(toCsv(chartSeriesToExport([forecast], t), 'Europe/Rome', { t }))[0]).toBe(
      'data e ora,Prognose (kWh),Prognose limite inferiore 80 % (kWh),Prognose limite superiore 80 % (kWh)',
    );
  });
});

describe('fileNameOf', () => {
  test('file-safe names', () => {
    expect(fileNameOf('Demo Home — consumption history', 'csv')).toBe(
      'demo-home-consumption-history.csv',
    );
    expect(fileNameOf('Città: élan', 'png')).toBe('citta-elan.png');
    expect(fileNameOf('***', 'csv')).toBe('chart.csv');
  });
});
