import type { LocalDate } from '../../../api/schemas/dates.ts';
import { formatLocalDate } from '../../../api/schemas/dates.ts';
import {
  summarizeDataHealth,
  type DataHealthSummary,
} from '../../../server/domain/dataHealth/summary.ts';
import type { ApiClient } from '../api/apiClient.ts';
import { isNotServed } from '../monitor/monitorSources.ts';

/**
 * A plant's data-health summary as the main process reads it (for the support bundle, which
 * includes it): per sensor coverage %, gaps, the last gap and issues, over the server's default
 * range (the last 90 local days) or the days asked. A server without the extension is no error:
 * the answer says it is not served, and the bundle writes that instead.
 */

export type DataHealthSummaryResult =
  { served: true; summary: DataHealthSummary } | { served: false };

export interface DataHealthSummaryRequest {
  plantUuid: string;
  startDate?: LocalDate;
  endDate?: LocalDate;
  signal?: AbortSignal;
}

export async function readDataHealthSummary(
  client: Pick<ApiClient, 'getDataHealth'>,
  { plantUuid, startDate, endDate, signal }: DataHealthSummaryRequest,
): Promise<DataHealthSummaryResult> {
  const query = {
    ...(startDate && { startDate: formatLocalDate(startDate) }),
    ...(endDate && { endDate: formatLocalDate(endDate) }),
  };
  try {
    const health = await client.getDataHealth({ params: { plantUuid }, query }, { signal });
    return { served: true, summary: summarizeDataHealth(health) };
  } catch (error) {
    // "Plant … not found" is a 404 too: that plant is gone, the route may well be served.
    if (isNotServed(error) && !/^plant\b.*\bnot found/i.test((error as Error).message)) {
      return { served: false };
    }
    throw error;
  }
}
