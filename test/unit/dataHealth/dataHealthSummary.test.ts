import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../electron/services/api/apiError.ts';
import { readDataHealthSummary } from '../../../electron/services/dataHealth/dataHealthSummary.ts';
import { plantHealth, sensorHealth } from '../../support/dataHealthAnswers.ts';

const health = plantHealth([sensorHealth()]);
const PLANT = health.plantUuid;

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
            coveragePercent: 93,
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
