import { z } from 'zod';
import { DataTypesCollect, DeviceType, LoadSignatureRecord, SensorType } from './catalogs.ts';
import { DeviceRecord } from './devices.ts';
import { SensorRecord } from './sensors.ts';
import { Vendor } from './vendors.ts';

/** Resources as answered, with `relationships` when `includeRelationships=true`. */

export const Device = DeviceRecord.extend({
  relationships: z
    .object({
      deviceType: DeviceType,
      sensors: z.array(SensorRecord),
      loadSignature: LoadSignatureRecord.nullable(),
      vendor: Vendor.nullable(),
    })
    .optional(),
}).meta({ id: 'Device' });
export type Device = z.infer<typeof Device>;

export const Sensor = SensorRecord.extend({
  relationships: z
    .object({
      device: DeviceRecord.nullable(),
      sensorType: SensorType,
      dataTypesCollects: z.array(DataTypesCollect),
    })
    .optional(),
}).meta({ id: 'Sensor' });
export type Sensor = z.infer<typeof Sensor>;

export const LoadSignature = LoadSignatureRecord.extend({
  relationships: z
    .object({
      deviceType: DeviceType.nullable(),
      devices: z.array(DeviceRecord),
    })
    .optional(),
}).meta({ id: 'LoadSignature' });
export type LoadSignature = z.infer<typeof LoadSignature>;
