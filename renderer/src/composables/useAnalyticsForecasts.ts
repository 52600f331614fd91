import { toValue, type MaybeRefOrGetter } from 'vue';
import type { DeviceTypeForecast, ForecastSeries } from '../../../api/schemas/metrics.ts';
import { useBridge } from '../bridge.ts';
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
  const bridge = useBridge();
  const params = () => ({ plantUuid: toValue(plantUuid) });
  return {
    consumption: useAnalyticsLoader(() =>
      bridge.call('predictConsumption', {
        params: params(),
        query: { hours: toValue(choice).hours },
      }),
    ),
    production: useAnalyticsLoader(() =>
      bridge.call('predictProduction', {
        params: params(),
        query: { hours: toValue(choice).hours },
      }),
    ),
    byDeviceType: useAnalyticsLoader(() =>
      bridge.call('predictByDeviceType', {
        params: params(),
        query: { consumerOnly: toValue(choice).consumerOnly },
      }),
    ),
  };
}
