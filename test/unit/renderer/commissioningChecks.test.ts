import { describe, expect, it } from 'vitest';
import { formattersFor } from '../../../i18n/format.ts';
import { createTranslator } from '../../../i18n/translator.ts';
import {
  ageText,
  CHECK_IDS,
  flowSensors,
  latestReadings,
  measuredFlows,
  verifyCommissioning,
  type CheckId,
  type ConnectionTestResult,
  type VerificationInput,
} from '../../../renderer/src/composables/commissioningChecks.ts';
import {
  commissionedRoof,
  device,
  ENERGY,
  HEAT_PUMP_TYPE,
  INVERTER_TYPE,
  PLANT,
  POWER,
  sensor,
  TEMPERATURE,
  THERMOMETER,
} from '../../renderer/commissioning/fixtures.ts';

/** The commissioning checklist (wizard step 5): each check passing and failing, with its reason. */

const ENGLISH = { t: createTranslator('en'), f: formattersFor('en') };

const NOW = new Date('2026-11-18T12:05:20Z');
const fresh = (secondsAgo = 20) => ({
  latestAt: new Date(NOW.getTime() - secondsAgo * 1000).toISOString(),
  coverage: 1,
});
const passedTests = (...sensors: { sensorUuid: string }[]) =>
  new Map<string, ConnectionTestResult>(
    sensors.map((entry) => [entry.sensorUuid, { status: 'passed' }]),
  );

function roofInput(overrides: Partial<VerificationInput> = {}): VerificationInput {
  const roof = commissionedRoof();
  return {
    plant: PLANT,
    devices: roof.devices,
    sensors: roof.sensors,
    connectionTests: passedTests(...roof.sensors),
    readings: { production: fresh(), consumption: fresh() },
    now: NOW,
    ...overrides,
  };
}

const check = (input: VerificationInput, id: CheckId) =>
  verifyCommissioning(input, ENGLISH).checks.find((entry) => entry.id === id)!;

describe('a fully commissioned plant', () => {
  it('passes every check, in order, with a reason each', () => {
    const result = verifyCommissioning(roofInput(), ENGLISH);
    expect(result.passed).toBe(true);
    expect(result.checkedAt).toBe(NOW.toISOString());
    expect(result.checks.map((entry) => entry.id)).toEqual([...CHECK_IDS]);
    for (const entry of result.checks) {
      expect(entry.passed, entry.reason).toBe(true);
      expect(entry.reason.length).toBeGreaterThan(10);
    }
    expect(result.checks.map((entry) => entry.reason)).toEqual([
      'Each of the 2 devices has a sensor.',
      'PV (PV settings of 6 kWp and PV inverter “Inverter”) is measured by “PV output”.',
      'Measured: the grid by “Grid connection” (consumption follows from production, grid and storage).',
      'All 2 connections passed their test just now.',
      'Readings arrived within the last 5 minutes for production and consumption.',
    ]);
  });
});

describe('every device has a sensor', () => {
  it('fails naming the devices without one', () => {
    const roof = commissionedRoof();
    const heatPump = device('Heat pump', HEAT_PUMP_TYPE);
    const result = check(roofInput({ devices: [...roof.devices, heatPump] }), 'devicesHaveSensors');
    expect(result.passed).toBe(false);
    expect(result.reason).toBe('No sensor is linked to “Heat pump”: link one in step 3, Devices.');
    expect(result.details).toEqual([
      'Inverter: measured by “PV output”',
      'Grid meter: measured by “Grid connection”',
      'Heat pump: no sensor linked',
    ]);
  });

  it('fails when the plant has no devices at all', () => {
    const result = check(roofInput({ devices: [] }), 'devicesHaveSensors');
    expect(result.passed).toBe(false);
    expect(result.reason).toBe('The plant has no devices yet: add them in step 3, Devices.');
  });
});

describe('production measured where there is PV', () => {
  it('fails with PV settings but no production sensor', () => {
    const roof = commissionedRoof();
    const result = check(
      roofInput({ devices: [roof.meter], sensors: [roof.grid] }),
      'productionMeasured',
    );
    expect(result.passed).toBe(false);
    expect(result.reason).toBe(
      'The plant has PV (PV settings of 6 kWp) but no sensor with flow Production measuring power or energy: add one in step 2, Sensors.',
    );
  });

  it('fails with an inverter but no PV settings and no production sensor', () => {
    const inverter = device('Inverter', INVERTER_TYPE);
    const result = check(
      roofInput({ plant: { ...PLANT, pv: null }, devices: [inverter], sensors: [] }),
      'productionMeasured',
    );
    expect(result.passed).toBe(false);
    expect(result.reason).toContain('The plant has PV (PV inverter “Inverter”)');
  });

  it('does not count a production sensor that measures neither power nor energy', () => {
    const roof = commissionedRoof();
    const temperature = sensor('Panel temperature', 'PRODUCTION', {
      dataTypes: [TEMPERATURE],
      type: THERMOMETER,
    });
    const result = check(
      roofInput({ devices: [roof.meter], sensors: [roof.grid, temperature] }),
      'productionMeasured',
    );
    expect(result.passed).toBe(false);
  });

  it('passes without PV, saying there is nothing to measure', () => {
    const roof = commissionedRoof();
    const result = check(
      roofInput({ plant: { ...PLANT, pv: null }, devices: [roof.meter], sensors: [roof.grid] }),
      'productionMeasured',
    );
    expect(result.passed).toBe(true);
    expect(result.reason).toBe(
      'The plant has no PV: no PV settings and no producing device, so no production to measure.',
    );
  });
});

describe('consumption or grid measured', () => {
  it('passes with a consumption meter, naming it', () => {
    const roof = commissionedRoof();
    const house = sensor('House', 'CONSUMPTION', { dataTypes: [ENERGY] });
    const result = check(roofInput({ sensors: [roof.pv, house] }), 'consumptionMeasured');
    expect(result.passed).toBe(true);
    expect(result.reason).toBe('Measured: consumption by “House”.');
  });

  it('fails with production only', () => {
    const roof = commissionedRoof();
    const result = check(roofInput({ sensors: [roof.pv] }), 'consumptionMeasured');
    expect(result.passed).toBe(false);
    expect(result.reason).toContain('No sensor with flow Consumption or Grid');
  });
});

describe("every sensor's connection passes", () => {
  it('fails naming the sensor whose test failed, with the server message', () => {
    const roof = commissionedRoof();
    const tests = passedTests(roof.pv);
    tests.set(roof.grid.sensorUuid, {
      status: 'failed',
      message: "Connection test of 'modbus://10.0.0.9' failed: Cannot connect to 10.0.0.9:502",
    });
    const result = check(
      roofInput({ devices: roof.devices, sensors: roof.sensors, connectionTests: tests }),
      'connectionsPass',
    );
    expect(result.passed).toBe(false);
    expect(result.reason).toBe('1 sensor of 2 did not pass: “Grid connection”.');
    expect(result.details).toEqual([
      'PV output (sim://roof/pv): test passed',
      "Grid connection (sim://roof/grid): test failed: Connection test of 'modbus://10.0.0.9' failed: Cannot connect to 10.0.0.9:502",
    ]);
  });

  it('fails for a sensor without a connection, and one that could not be tested', () => {
    const roof = commissionedRoof();
    const manual = sensor('Manual meter', 'CONSUMPTION', { address: null });
    const tests = passedTests(roof.pv);
    tests.set(roof.grid.sensorUuid, {
      status: 'error',
      message: 'Requires the permission SENSORS CREATE',
    });
    const result = check(
      roofInput({ sensors: [...roof.sensors, manual], connectionTests: tests }),
      'connectionsPass',
    );
    expect(result.passed).toBe(false);
    expect(result.reason).toBe('2 sensors of 3 did not pass: “Grid connection”, “Manual meter”.');
    expect(result.details).toContain(
      'Grid connection (sim://roof/grid): could not be tested: Requires the permission SENSORS CREATE',
    );
    expect(result.details).toContain(
      'Manual meter: no connection, so nothing collects its readings',
    );
  });

  it('fails when the plant has no sensors', () => {
    const result = check(roofInput({ sensors: [] }), 'connectionsPass');
    expect(result.passed).toBe(false);
    expect(result.reason).toBe('The plant has no sensors yet: add them in step 2, Sensors.');
  });
});

describe('first readings arrived in the last minutes', () => {
  it('fails when a flow has no reading in the window, asking to check again', () => {
    const result = check(
      roofInput({
        readings: { production: fresh(), consumption: { latestAt: null, coverage: 0 } },
      }),
      'readingsArrived',
    );
    expect(result.passed).toBe(false);
    expect(result.reason).toBe(
      'Consumption has no reading in the last 15 minutes. New sensors get their first reading within a minute; check again shortly.',
    );
  });

  it('fails on stale readings, saying how old', () => {
    const result = check(
      roofInput({ readings: { production: fresh(11 * 60), consumption: fresh() } }),
      'readingsArrived',
    );
    expect(result.passed).toBe(false);
    expect(result.reason).toContain("Production's latest reading is 11 min ago");
    expect(result.details[0]).toBe(
      'Production (“PV output”): latest reading 11 min ago, older than 5 minutes',
    );
  });

  it('fails when only part of a flow’s sensors report', () => {
    const result = check(
      roofInput({
        readings: { production: fresh(), consumption: { ...fresh(), coverage: 0.5 } },
      }),
      'readingsArrived',
    );
    expect(result.passed).toBe(false);
    expect(result.reason).toContain('Consumption: only 50 % of its sensors have readings');
  });

  it('fails with the message when the readings could not be read', () => {
    const result = check(
      roofInput({
        readings: { production: { error: 'Requires PLANT_POWER_PRODUCTION READ' } },
      }),
      'readingsArrived',
    );
    expect(result.passed).toBe(false);
    expect(result.reason).toContain(
      'Production could not be read: Requires PLANT_POWER_PRODUCTION READ',
    );
    expect(result.reason).toContain('Consumption was not read');
  });

  it('names the sensors whose readings the API cannot read back, without failing', () => {
    const roof = commissionedRoof();
    const outdoor = sensor('Outdoor', 'AMBIENT', { dataTypes: [TEMPERATURE], type: THERMOMETER });
    const result = check(
      roofInput({
        sensors: [...roof.sensors, outdoor],
        connectionTests: passedTests(...roof.sensors, outdoor),
      }),
      'readingsArrived',
    );
    expect(result.passed).toBe(true);
    expect(result.details).toEqual([
      'Production (“PV output”): latest reading 20 s ago',
      'Consumption (“PV output”, “Grid connection”): latest reading 20 s ago',
      'Not checked (the API does not read their readings back): “Outdoor”',
    ]);
  });

  it('fails when no sensor measures power or energy', () => {
    const outdoor = sensor('Outdoor', 'AMBIENT', { dataTypes: [TEMPERATURE], type: THERMOMETER });
    const result = check(roofInput({ sensors: [outdoor], readings: {} }), 'readingsArrived');
    expect(result.passed).toBe(false);
    expect(result.reason).toContain('so no reading can be read back');
  });
});

describe('the flows the API reads back', () => {
  it('prefers plant-level meters, and derives consumption from the grid only without meters', () => {
    const roof = commissionedRoof();
    const plantPv = sensor('Plant PV', 'PRODUCTION');
    const house = sensor('House', 'CONSUMPTION', { dataTypes: [POWER] });
    expect(flowSensors([roof.pv, plantPv, roof.grid]).production).toEqual([plantPv]);
    expect(flowSensors([roof.pv, roof.grid, house]).consumption).toEqual([house]);
    expect(flowSensors([roof.pv, roof.grid]).consumption).toEqual([roof.pv, roof.grid]);
    expect(measuredFlows([roof.pv])).toEqual(['production']);
    expect(measuredFlows([])).toEqual([]);
  });

  it('reads the latest instant with data from raw samples', () => {
    expect(
      latestReadings([
        { timestamp: '2026-11-18T13:03:00+01:00', coverage: 1 },
        { timestamp: '2026-11-18T13:04:00+01:00', coverage: 0.5 },
        { timestamp: '2026-11-18T13:05:00+01:00', coverage: 0 },
      ]),
    ).toEqual({ latestAt: '2026-11-18T13:04:00+01:00', coverage: 0.5 });
    expect(latestReadings([])).toEqual({ latestAt: null, coverage: 0 });
  });

  it('words ages in seconds, then minutes', () => {
    expect(ageText(0, 40_000, ENGLISH.t)).toBe('40 s ago');
    expect(ageText(0, 180_000, ENGLISH.t)).toBe('3 min ago');
    expect(ageText(10_000, 0, ENGLISH.t)).toBe('0 s ago');
  });
});

describe('in German and Italian', () => {
  const words = (locale: 'de' | 'it') => ({
    t: createTranslator(locale),
    f: formattersFor(locale),
  });
  const withPv = (peakPowerKw: number) => ({ ...PLANT, pv: { ...PLANT.pv!, peakPowerKw } });

  it('writes the reasons in the language, with its quotation marks and a decimal comma', () => {
    const german = verifyCommissioning(roofInput({ plant: withPv(6.5) }), words('de'));
    expect(german.checks.map((entry) => entry.title)[0]).toBe('Jedes Gerät hat einen Sensor');
    expect(german.checks.map((entry) => entry.reason)).toEqual([
      'Jedes der 2 Geräte hat einen Sensor.',
      'Die PV (PV-Einstellungen mit 6,5 kWp und PV inverter „Inverter“) wird von „PV output“ gemessen.',
      'Gemessen: das Netz von „Grid connection“ (der Verbrauch ergibt sich aus Erzeugung, Netz und Speicher).',
      'Alle 2 Verbindungen haben ihren Test soeben bestanden.',
      'Messwerte für Erzeugung und Verbrauch sind in den letzten 5 Minuten eingetroffen.',
    ]);
    const italian = verifyCommissioning(roofInput({ plant: withPv(6.5) }), words('it'));
    expect(italian.checks[1]!.reason).toBe(
      'Il fotovoltaico (impostazioni FV da 6,5 kWp e PV inverter «Inverter») è misurato da «PV output».',
    );
  });

  it('takes the singular and the plural form by the count', () => {
    const roof = commissionedRoof();
    const failing = (...failed: { sensorUuid: string }[]) =>
      new Map<string, ConnectionTestResult>(
        roof.sensors.map((entry) => [
          entry.sensorUuid,
          failed.includes(entry) ? { status: 'failed', message: 'timeout' } : { status: 'passed' },
        ]),
      );
    const reason = (locale: 'de' | 'it', ...failed: { sensorUuid: string }[]) =>
      verifyCommissioning(
        roofInput({
          devices: roof.devices,
          sensors: roof.sensors,
          connectionTests: failing(...failed),
        }),
        words(locale),
      ).checks.find((entry) => entry.id === 'connectionsPass')!.reason;
    expect(reason('de', roof.grid)).toBe(
      '1 von 2 Sensoren hat den Test nicht bestanden: „Grid connection“.',
    );
    expect(reason('de', roof.grid, roof.pv)).toBe(
      '2 von 2 Sensoren haben den Test nicht bestanden: „PV output“, „Grid connection“.',
    );
    expect(reason('it', roof.grid)).toBe(
      '1 sensore su 2 non ha superato il test: «Grid connection».',
    );
    expect(ageText(0, 180_000, createTranslator('de'))).toBe('vor 3 min');
  });
});
