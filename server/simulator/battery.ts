import { MINUTES_PER_DAY } from './plantClock.ts';

/**
 * A home battery run the usual way: it charges from PV surplus and discharges to cover the
 * load, within its power rating and between 10 % and 95 % state of charge, losing energy both
 * ways (90 % round trip). It ignores imbalances below a few tens of watts, as real ones do.
 */

export interface BatterySpec {
  capacityKwh: number;
  /** Charge and discharge limit, W. */
  maxPowerW: number;
}

export const DEFAULT_BATTERY_CAPACITY_KWH = 10;
export const MIN_SOC_PERCENT = 10;
export const MAX_SOC_PERCENT = 95;
export const ROUND_TRIP_EFFICIENCY = 0.9;
const ONE_WAY_EFFICIENCY = Math.sqrt(ROUND_TRIP_EFFICIENCY);
const DEADBAND_W = 20;
const MINUTES_PER_HOUR = 60;

export interface BatteryDay {
  /** STORAGE sign convention: positive = discharge, negative = charge; W. */
  batteryW: Float64Array;
  /** State of charge at the start of each minute, %. */
  socPercent: Float64Array;
  /** State of charge at the end of the day, %. */
  endSocPercent: number;
}

/**
 * Runs the battery through one day of net load (consumption − production, W, per minute) from
 * `startSocPercent`. Without `record`, only the end state is computed (the warm-up days).
 */
export function dispatchBattery(
  spec: BatterySpec,
  netLoadW: ArrayLike<number>,
  startSocPercent: number,
  record = true,
): BatteryDay {
  const batteryW = new Float64Array(record ? MINUTES_PER_DAY : 0);
  const socPercent = new Float64Array(record ? MINUTES_PER_DAY : 0);
  const capacityWh = spec.capacityKwh * 1000;
  const maxPowerW = spec.maxPowerW;
  let soc = startSocPercent;
  for (let index = 0; index < netLoadW.length; index++) {
    if (record) socPercent[index] = soc;
    const net = netLoadW[index]!;
    let power = 0;
    if (net < -DEADBAND_W && capacityWh > 0) {
      const headroomWh = ((MAX_SOC_PERCENT - soc) / 100) * capacityWh;
      const charge = Math.min(
        -net,
        maxPowerW,
        (headroomWh * MINUTES_PER_HOUR) / ONE_WAY_EFFICIENCY,
      );
      if (charge > 0) {
        power = -charge;
        soc += ((charge * ONE_WAY_EFFICIENCY) / MINUTES_PER_HOUR / capacityWh) * 100;
      }
    } else if (net > DEADBAND_W && capacityWh > 0) {
      const availableWh = ((soc - MIN_SOC_PERCENT) / 100) * capacityWh;
      const discharge = Math.min(
        net,
        maxPowerW,
        availableWh * MINUTES_PER_HOUR * ONE_WAY_EFFICIENCY,
      );
      if (discharge > 0) {
        power = discharge;
        soc -= (discharge / ONE_WAY_EFFICIENCY / MINUTES_PER_HOUR / capacityWh) * 100;
      }
    }
    // Rounding must not carry the state a hair past its limits.
    soc = Math.min(Math.max(soc, MIN_SOC_PERCENT), MAX_SOC_PERCENT);
    if (record) batteryW[index] = power;
  }
  return { batteryW, socPercent, endSocPercent: soc };
}
