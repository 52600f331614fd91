import type { ServerContext } from '../context.ts';
import type { RouteHandlers } from '../http/routing.ts';
import { authHandlers } from './auth/authHandlers.ts';
import { plantHandlers } from './plants/plantHandlers.ts';
import { catalogHandlers } from './catalogs/catalogHandlers.ts';
import { vendorHandlers } from './vendors/vendorHandlers.ts';
import { deviceHandlers } from './devices/deviceHandlers.ts';
import { sensorHandlers } from './sensors/sensorHandlers.ts';
import { readingHandlers } from '../measurements/readingHandlers.ts';
import { energyMetricsHandlers } from '../measurements/metrics/metricsHandlers.ts';
import { forecastHandlers } from '../forecasts/forecastHandlers.ts';
import { pvHealthHandlers } from '../pvHealth/pvHealthHandlers.ts';
import { fleetHandlers } from './fleet/fleetHandlers.ts';
import { dataHealthHandlers } from './dataHealth/dataHealthHandlers.ts';

/** Every route's handler, by operation id; the type makes a missing one a compile error. */
export function allHandlers(context: ServerContext): RouteHandlers {
  return {
    ...authHandlers(context),
    ...plantHandlers(context),
    ...catalogHandlers(context),
    ...vendorHandlers(context),
    ...deviceHandlers(context),
    ...sensorHandlers(context),
    ...readingHandlers(context),
    ...energyMetricsHandlers(context),
    ...forecastHandlers(context),
    ...pvHealthHandlers(context),
    ...fleetHandlers(context),
    ...dataHealthHandlers(context),
  } as RouteHandlers;
}
