import { describe, expect, it, vi } from 'vitest';
import type { PlantDataHealth } from '../../../api/schemas/dataHealth.ts';
import { ApiError } from '../../../electron/services/api/apiError.ts';
import { readDataHealthSummary } from '../../../electron/services/dataHealth/dataHealthSummary.ts';

const PLANT = '00000000-0000-4000-8000-0000000000aa';

const health: PlantDataHealth = {
  plantUuid: PLANT,
  timezone: 'Europe/Madrid',
  evaluatedAt: '2026-03-30T10:00:00.000Z',
  from: '2026-03-29T00:00:00+01:00',
  to: '2026-03-30T00:00:00+02:00',
  days: [{ date: '2026-03-29', hours: 23, elapsedHours: 23 }],
  sensors: [
    {
      sensorUuid: '00000000-0000-4000-8000-000000000001',
      name: 'Meter',
      deviceUuid: null,
      flow: 'CONSUMPTION',
      dataType: 'POWER',
      samplingIntervalSeconds: 60,
      coverage: [0.5],
      coverageTotal: 0.5,
      gapCount: 1,
      gaps: [
        {
          start: '2026-03-29T12:00:00+02:00',
          end: '2026-03-30T00:00:00+02:00',
          durationSeconds: 43200,
        },
      ],
      counterIssueCount: 0,
      counterIssues: [],
      frozenCount: 0,
      frozen: [],
      suspicions: [],
    },
  ],
};

describe('readDataHealthSummary', () => {
  it('asks the route with the days given and answers the compact summary', async () => {
    const getDataHealth = vi.fn(async () => health);
    const result = await readDataHealthSummary(
      { getDataHealth },
      { plantUuid: PLANT, startDate: { year: 2026, month: 3, day: 29 } },
    );
    expect(getDataHealth).toHaveBeenCalledWith(
      { params: { plantUuid: PLANT }, query: { startDate: '2026-03-29' } },
      { signal: undefined },
    );
    expect(result).toEqual({
      served: true,
      summary: expect.objectContaining({
        plantUuid: PLANT,
        sensors: [
          expect.objectContaining({
            coveragePercent: 50,
            gapCount: 1,
            lastGap: health.sensors[0]!.gaps[0],
          }),
        ],
      }),
    });
  });

  it('says "not served" when the server lacks the extension (404 for the route)', async () => {
    const getDataHealth = vi.fn(async () => {
      throw new ApiError('api', 'Route GET /plants/x/data-health not found', { status: 404 });
    });
    expect(await readDataHealthSummary({ getDataHealth }, { plantUuid: PLANT })).toEqual({
      served: false,
    });
  });

  it('passes on a missing plant and any other failure', async () => {
    const missing = new ApiError('api', `Plant ${PLANT} not found`, { status: 404 });
    await expect(
      readDataHealthSummary(
        { getDataHealth: async () => Promise.reject(missing) },
        { plantUuid: PLANT },
      ),
    ).rejects.toBe(missing);
    const offline = new ApiError('network', 'The server is not reachable');
    await expect(
      readDataHealthSummary(
        { getDataHealth: async () => Promise.reject(offline) },
        { plantUuid: PLANT },
      ),
    ).rejects.toBe(offline);
  });
});
