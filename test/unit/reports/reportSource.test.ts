import { describe, expect, it } from 'vitest';
import {
  loadPlantReportInput,
  type ReportCall,
  type ReportSourceDeps,
} from '../../../server/domain/reports/index.ts';

const PLANT = {
  uuid: 'p1',
  name: 'Roof',
  timezone: 'UTC',
  peakPowerKw: 5,
  location: { latitude: 40.42, longitude: -3.7 },
};
const MARCH = { kind: 'month', year: 2026, month: 3 } as const;

class Answer extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

const series = (day: string) => ({
  plantUuid: 'p1',
  timezone: 'UTC',
  unit: 'kWh',
  from: `${day}T00:00:00Z`,
  to: `${day}T00:00:00Z`,
  points: [],
});

/** Answers every route; `failing` answers some with an API status instead. */
function source(failing: Record<string, Answer> = {}) {
  const asked: { route: string; query: Record<string, string> | undefined }[] = [];
  const call: ReportCall = async (route, input) => {
    asked.push({ route, query: input.query });
    if (failing[route]) throw failing[route];
    if (route === 'getDataHealth') return { sensors: [] };
    if (route === 'pvHealth')
      return {
        energyProducedKwh: 0,
        expectedEnergyKwh: null,
        performancePercent: null,
        performanceRatio: null,
        status: 'NO_DATA',
      };
    return series(input.query?.startDate?.slice(0, 10) ?? '2026-03-01');
  };
  const deps: ReportSourceDeps = {
    call,
    statusOf: (error) => (error instanceof Answer ? error.status : undefined),
  };
  return { deps, asked };
}

describe('a report’s inputs from the API', () => {
  it('reads the weeks before, the year before, the production by the hour and the data-health map', async () => {
    const { deps, asked } = source();
    const input = await loadPlantReportInput(deps, PLANT, MARCH);
    const queries = (route: string) => asked.filter((a) => a.route === route).map((a) => a.query);
    expect(queries('summaryConsumption')).toEqual([
      { startDate: '2026-03-01', endDate: '2026-03-31' },
      { startDate: '2026-02-01', endDate: '2026-02-28' },
      { startDate: '2025-03-01', endDate: '2025-03-31' },
    ]);
    expect(queries('historyProduction')).toEqual([
      { startDate: '2026-03-01T00:00', endDate: '2026-04-01T00:00', granularity: 'hours' },
    ]);
    expect(queries('getDataHealth')).toEqual([{ startDate: '2026-03-01', endDate: '2026-03-31' }]);
    expect(input.dataHealth).toEqual({
      productionCoverage: null,
      consumptionCoverage: null,
      findings: { gaps: 0, counterIssues: 0, frozen: 0 },
      sensors: 0,
    });
  });

  it('expects a year from the year before only, never from the weeks before it', async () => {
    const { deps, asked } = source();
    const input = await loadPlantReportInput(deps, PLANT, { kind: 'year', year: 2026 });
    expect(asked.filter((a) => a.route === 'summaryConsumption').map((a) => a.query)).toEqual([
      { startDate: '2026-01-01', endDate: '2026-12-31' },
      { startDate: '2025-01-01', endDate: '2025-12-31' },
    ]);
    expect(input.consumptionHistory?.weeksBefore).toBeNull();
  });

  it('leaves out the data-health map of a server without it, and what the user may not read', async () => {
    const { deps } = source({
      getDataHealth: new Answer(404, 'No route for GET /plants/{plantUuid}/data-health'),
      historyProduction: new Answer(403, 'Permission PLANT_POWER_PRODUCTION READ required'),
    });
    const input = await loadPlantReportInput(deps, PLANT, MARCH);
    expect(input.dataHealth).toBeNull();
    expect(input.productionHours).toBeNull();
  });

  it('fails the plant when the plant itself is gone, not only the extension', async () => {
    const { deps } = source({ getDataHealth: new Answer(404, 'Plant p1 not found') });
    await expect(loadPlantReportInput(deps, PLANT, MARCH)).rejects.toThrow('Plant p1 not found');
  });

  it('asks no hourly production of a plant without a site', async () => {
    const { deps, asked } = source();
    await loadPlantReportInput(deps, { ...PLANT, location: null }, MARCH);
    expect(asked.some((a) => a.route === 'historyProduction')).toBe(false);
  });
});
