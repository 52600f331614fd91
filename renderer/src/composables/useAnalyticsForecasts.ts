import { toValue, type MaybeRefOrGetter } from 'vue';
import type { DeviceTypeForecast, ForecastSeries } from '../../../api/schemas/metrics.ts';
import type { ForecastChoice } from '../analytics/query.ts';
import { useAnalyticsLoader, type AnalyticsLoader } from './useAnalyticsLoader.ts';

/**
 * The forecasts tab's data: consumption and production for the next `hours` hours (each with
 * its 80 % interval), and the next local day per device type (`consumerOnly`: consumers only).
 * Each is its own card: a plant without PV settings fails the production forecast (422) and
 * still shows the others.
 */
export function useAnalyticsForecasts(
  plantUuid: MaybeRefOrGetter<string>,
  choice: MaybeRefOrGetter<ForecastChoice>,
): {
  consumption: AnalyticsLoader<ForecastSeries>;
  production: AnalyticsLoader<ForecastSeries>;
  byDeviceType: AnalyticsLoader<DeviceTypeForecast>;
} {
  const plant = () => toValue(plantUuid);
  const hours = () => ({ plantUuid: plant(), hours: toValue(choice).hours });
  return {
    consumption: useAnalyticsLoader(['forecast', 'consumption'], hours, (input, call) =>
      call('predictConsumption', {
        params: { plantUuid: input.plantUuid },
        query: { hours: input.hours },
      }),
    ),
    production: useAnalyticsLoader(['forecast', 'production'], hours, (input, call) =>
      call('predictProduction', {
        params: { plantUuid: input.plantUuid },
        query: { hours: input.hours },
      }),
    ),
    byDeviceType: useAnalyticsLoader(
      ['forecast', 'byDeviceType'],
      () => ({ plantUuid: plant(), consumerOnly: toValue(choice).consumerOnly }),
      (input, call) =>
        call('predictByDeviceType', {
          params: { plantUuid: input.plantUuid },
          query: { consumerOnly: input.consumerOnly },
        }),
    ),
  };
}
