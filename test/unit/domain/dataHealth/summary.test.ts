import { describe, expect, it } from 'vitest';
import type { SensorDataHealth } from '../../../../api/schemas/dataHealth.ts';
import { plantHealth, sensorHealth } from '../../../support/dataHealthAnswers.ts';
import { periodCoverage, summarizeDataHealth } from '../../../../server/domain/dataHealth/index.ts';

const sensor = (overrides: Partial<SensorDataHealth>) =>
  sensorHealth({
    name: 'PV',
    flow: 'PRODUCTION',
    coverage: [1, 0.5, null],
    coverageTotal: 0.7654,
    gapCount: 2,
    gaps: [
      {
        start: '2026-03-28T10:00:00+01:00',
        end: '2026-03-28T11:00:00+01:00',
        durationSeconds: 3600,
      },
      {
        start: '2026-03-29T10:00:00+02:00',
        end: '2026-03-29T21:30:00+02:00',
        durationSeconds: 41400,
      },
    ],
    frozenCount: 1,
    suspicions: [{ code: 'PRODUCTION_NEGATIVE_BY_DAY', observed: 0.9, reference: 0.2 }],
    ...overrides,
  });

const health = plantHealth([
  sensor({}),
  sensor({
    sensorUuid: '00000000-0000-4000-8000-000000000002',
    name: 'House',
    flow: 'CONSUMPTION',
    coverage: [1, 1, 0.25],
    gaps: [],
    gapCount: 0,
    suspicions: [],
  }),
]);

describe('summarizeDataHealth', () => {
  it('keeps per sensor its coverage in percent, gap count, last gap and the codes found', () => {
    const [pv, house] = summarizeDataHealth(health).sensors;
    expect(pv).toEqual({
      sensorUuid: '00000000-0000-4000-8000-000000000001',
      name: 'PV',
      flow: 'PRODUCTION',
      dataType: 'POWER',
      coveragePercent: 76.5,
      gapCount: 2,
      lastGap: health.sensors[0]!.gaps[1],
      counterIssueCount: 0,
      frozenCount: 1,
      suspicions: ['PRODUCTION_NEGATIVE_BY_DAY'],
    });
    expect(house!.lastGap).toBeNull();
  });
});

describe('periodCoverage', () => {
  it('weighs days by their length, leaves days to come out, and names the weakest sensor', () => {
    const all = periodCoverage(health, '2026-03-28', '2026-03-30');
    expect(all.bySensor.get('00000000-0000-4000-8000-000000000001')).toBeCloseTo(
      (24 + 0.5 * 23) / 47,
      9,
    );
    expect(all.bySensor.get('00000000-0000-4000-8000-000000000002')).toBeCloseTo(
      (24 + 23 + 3) / 59,
      9,
    );
    expect(all.weakest).toBeCloseTo((24 + 0.5 * 23) / 47, 9);
    const production = periodCoverage(
      health,
      '2026-03-29',
      '2026-03-29',
      (s) => s.flow === 'PRODUCTION',
    );
    expect([...production.bySensor.values()]).toEqual([0.5]);
    expect(
      periodCoverage(health, '2026-03-30', '2026-03-30', (s) => s.flow === 'PRODUCTION').weakest,
    ).toBeNull();
  });
});
