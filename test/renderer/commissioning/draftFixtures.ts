import type { Draft, DraftRefusal } from '../../../electron/ipc/contract.ts';
import { INVERTER_TYPE, POWER_METER, SIMULATOR } from './fixtures.ts';

/** A draft of a barn roof: an inverter measured by a PV sensor, and a grid sensor; not sent. */

export const DRAFT_ID = '33333333-3333-4333-8333-333333333333';

export function draft(overrides: Partial<Draft> = {}): Draft {
  return {
    draftId: DRAFT_ID,
    environmentId: 'local',
    account: 'installer@example.com',
    createdAt: '2026-11-20T10:00:00.000Z',
    updatedAt: '2026-11-20T10:05:00.000Z',
    content: {
      plant: {
        name: 'Barn roof',
        externalIds: [`plantdesk-draft-${DRAFT_ID}`],
        location: { latitude: 45.07, longitude: 7.69, timezone: 'Europe/Rome' },
        pv: { peakPowerKw: 6, tiltDeg: 30, azimuthDeg: 180, lossesPercent: 14 },
      },
      devices: [
        {
          key: 'device-1',
          name: 'PV inverter',
          deviceTypeUuid: INVERTER_TYPE.deviceTypeUuid,
          serialNumber: 'INV-1',
        },
      ],
      sensors: [
        {
          key: 'sensor-1',
          name: 'PV output',
          sensorTypeUuid: POWER_METER.sensorTypeUuid,
          flow: 'PRODUCTION',
          connection: { vendorUuid: SIMULATOR.vendorUuid, address: 'sim://barn/pv' },
          deviceKey: 'device-1',
        },
        {
          key: 'sensor-2',
          name: 'Grid',
          sensorTypeUuid: POWER_METER.sensorTypeUuid,
          flow: 'GRID',
          connection: { vendorUuid: SIMULATOR.vendorUuid, address: 'sim://barn/grid' },
        },
      ],
      vendors: [],
    },
    status: 'notSent',
    sent: { plantUuid: null, devices: {}, sensors: {}, vendors: {} },
    refusals: [],
    lastSentAt: null,
    ...overrides,
  };
}

/** The server's refusal of the grid sensor's connection, as a send reports it. */
export const GRID_REFUSED: DraftRefusal = {
  section: 'sensors',
  key: 'sensor-2',
  field: 'connection',
  kind: 'refused',
  status: 422,
  message: 'No answer from sim://barn/grid',
};
