import type { ServerContext } from '../../context.ts';
import { dataTypesCollectHandlers } from './dataTypesCollectHandlers.ts';
import { deviceTypeHandlers } from './deviceTypeHandlers.ts';
import { loadSignatureHandlers } from './loadSignatureHandlers.ts';
import { sensorTypeHandlers } from './sensorTypeHandlers.ts';

/** The configuration catalogs: sensor types, device types, load signatures, data types. */
export function catalogHandlers(context: ServerContext) {
  return {
    ...sensorTypeHandlers(context),
    ...deviceTypeHandlers(context),
    ...loadSignatureHandlers(context),
    ...dataTypesCollectHandlers(context),
  };
}
