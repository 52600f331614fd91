import { describe, expect, it } from 'vitest';
import type { SensorDataHealth } from '../../../api/schemas/dataHealth.ts';
import { reportDataHealth } from '../../../server/domain/reports/index.ts';
import { sensorHealth } from '../../support/dataHealthAnswers.ts';

const DEVICE = '33333333-3333-4333-8333-333333333333';

const sensor = (
  flow: SensorDataHealth['flow'],
  coverageTotal: number,
  options: Partial<SensorDataHealth> = {},
): SensorDataHealth =>
  sensorHealth({
    flow,
    coverageTotal,
    gapCount: 0,
    sensorUuid: `${flow}-${coverageTotal}`,
    ...options,
  });

describe('data health in a report', () => {
  it('takes each figure’s coverage from the sensors behind it, plant-level meters first', () => {
    const health = reportDataHealth({
      sensors: [
        sensor('PRODUCTION', 0.9, { gapCount: 2 }),
        sensor('PRODUCTION', 0.5, { deviceUuid: DEVICE, frozenCount: 1 }),
        sensor('CONSUMPTION', 0.8, { dataType: 'ENERGY', counterIssueCount: 3 }),
        sensor('CONSUMPTION', 0.6),
        // Not energy: left out of coverage and findings.
        sensor('AMBIENT', 0.1, { dataType: 'TEMPERATURE', gapCount: 9 }),
        sensor('PRODUCTION', 0.2, { dataType: 'IRRADIANCE', gapCount: 9 }),
      ],
    });
    expect(health).toEqual({
      productionCoverage: 0.9,
      consumptionCoverage: 0.7,
      findings: { gaps: 2, counterIssues: 3, frozen: 1 },
      sensors: 4,
    });
  });

  it('covers a balance consumption as its least covered term, and says when nothing measures a flow', () => {
    const balance = reportDataHealth({
      sensors: [sensor('PRODUCTION', 0.95), sensor('GRID', 0.4), sensor('STORAGE', 0.7)],
    });
    expect(balance.consumptionCoverage).toBe(0.4);
    const bare = reportDataHealth({ sensors: [sensor('PRODUCTION', 1)] });
    expect(bare.consumptionCoverage).toBeNull();
    expect(reportDataHealth({ sensors: [] }).productionCoverage).toBeNull();
  });
});
