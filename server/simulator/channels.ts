import type { DataTypeCode, SensorFlow } from '../../api/index.ts';
import type { SimulatedDay } from './plantSimulation.ts';

/**
 * Which simulated quantity a sensor reports, decided by its flow, primary data type and device,
 * with its `sim://host/<path>` address as a hint where those leave it open (a plant-level
 * consumption meter addressed `.../heat-pump` reports the heat pump).
 */

export type PowerChannel =
  | { source: 'pv' }
  | { source: 'battery' }
  | { source: 'grid' }
  | { source: 'consumption' }
  | { source: 'load'; loadKey: string };

export type Channel =
  | PowerChannel
  | { source: 'soc' }
  | { source: 'temperature' }
  | { source: 'irradiance' }
  | { source: 'voltage' }
  | { source: 'current'; of: PowerChannel };

export interface ChannelSensor {
  flow: SensorFlow;
  /** The primary data type: what the readings are. */
  dataType: DataTypeCode;
  deviceUuid: string | null;
  address: string;
}

/** What the plant's configuration says about its loads. */
export interface ChannelPlant {
  /** The load simulated for a device, if any. */
  loadOfDevice(deviceUuid: string): string | undefined;
  /** The plant's first load of a kind (for address hints). */
  loadOfKind(kind: 'heatPump' | 'ev'): string | undefined;
}

export const ADDRESS_HINTS = [
  'pv',
  'battery/power',
  'battery/soc',
  'heat-pump',
  'ev-charger',
  'grid',
  'consumption',
  'outdoor-temperature',
  'irradiance',
] as const;
export type AddressHint = (typeof ADDRESS_HINTS)[number];

const SIM_ADDRESS = /^sim:\/\/[^/\s]+\/?(.*)$/i;

/** A `sim://` address: the channel its path names (by its last segments), if any. */
export function addressHint(address: string): AddressHint | undefined {
  const match = SIM_ADDRESS.exec(address.trim());
  if (!match) return undefined;
  const path = `/${match[1]!.toLowerCase().replace(/\/+$/, '')}`;
  return [...ADDRESS_HINTS]
    .sort((a, b) => b.length - a.length)
    .find((hint) => path.endsWith(`/${hint}`));
}

export function isSimulatorAddress(address: string | null): address is string {
  return address != null && SIM_ADDRESS.test(address.trim());
}

export function resolveChannel(sensor: ChannelSensor, plant: ChannelPlant): Channel | undefined {
  switch (sensor.dataType) {
    case 'STATE_OF_CHARGE':
      return { source: 'soc' };
    case 'TEMPERATURE':
      return { source: 'temperature' };
    case 'IRRADIANCE':
      return { source: 'irradiance' };
    case 'VOLTAGE':
      return { source: 'voltage' };
    case 'CURRENT': {
      const of = powerChannel(sensor, plant);
      return of && { source: 'current', of };
    }
    case 'POWER':
    case 'ENERGY':
      return powerChannel(sensor, plant);
  }
}

function powerChannel(sensor: ChannelSensor, plant: ChannelPlant): PowerChannel | undefined {
  const hint = addressHint(sensor.address);
  switch (sensor.flow) {
    case 'PRODUCTION':
      return { source: 'pv' };
    case 'STORAGE':
      return { source: 'battery' };
    case 'GRID':
      return { source: 'grid' };
    case 'CONSUMPTION': {
      const loadKey = sensor.deviceUuid
        ? plant.loadOfDevice(sensor.deviceUuid)
        : hintedLoad(hint, plant);
      return loadKey ? { source: 'load', loadKey } : { source: 'consumption' };
    }
    case 'AMBIENT':
      return hintedChannel(hint, plant);
  }
}

function hintedLoad(hint: AddressHint | undefined, plant: ChannelPlant): string | undefined {
  if (hint === 'heat-pump') return plant.loadOfKind('heatPump');
  if (hint === 'ev-charger') return plant.loadOfKind('ev');
  return undefined;
}

function hintedChannel(
  hint: AddressHint | undefined,
  plant: ChannelPlant,
): PowerChannel | undefined {
  switch (hint) {
    case 'pv':
      return { source: 'pv' };
    case 'battery/power':
      return { source: 'battery' };
    case 'grid':
      return { source: 'grid' };
    case 'consumption':
      return { source: 'consumption' };
    case 'heat-pump':
    case 'ev-charger': {
      const loadKey = hintedLoad(hint, plant);
      return loadKey ? { source: 'load', loadKey } : undefined;
    }
    default:
      return undefined;
  }
}

/** The channel's value at each minute of `day`: W, %, °C, W/m², V or A. */
export function channelSeries(day: SimulatedDay, channel: Channel): Float64Array {
  switch (channel.source) {
    case 'pv':
      return day.pvW;
    case 'battery':
      return day.batteryW;
    case 'grid':
      return day.gridW;
    case 'consumption':
      return day.consumptionW;
    case 'load':
      return day.loadW.get(channel.loadKey) ?? new Float64Array(day.pvW.length);
    case 'soc':
      return day.socPercent;
    case 'temperature':
      return day.temperatureC;
    case 'irradiance':
      return day.poaWm2;
    case 'voltage':
      return day.voltageV;
    case 'current': {
      const power = channelSeries(day, channel.of);
      return power.map((watts, index) => watts / day.voltageV[index]!);
    }
  }
}

/** The simulated quantity behind a channel (a current's is its power's). */
export function sourceOf(channel: Channel): Channel['source'] {
  return channel.source === 'current' ? channel.of.source : channel.source;
}
