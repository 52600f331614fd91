import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fieldForMessage } from '../../api/errorFields.ts';
import { SENSOR_FORM_FIELDS } from '../../renderer/src/components/sensors/sensorLabels.ts';
import { createPlant, createSensor, expectStatus } from '../support/entities.ts';
import { TestServer } from '../support/testServer.ts';

/**
 * What the sensor form's "Sign inverted" setting relies on, against the real server: the
 * plant's sensors carry the field (how the form learns the server has it), a power sensor takes
 * it on create and keeps it on an update that leaves it out (the form sends only a change), and
 * an energy counter's refusal names the field the form shows it on.
 */

let server: TestServer;
let installer: string;
let plantUuid: string;
let sensorTypes: Record<string, string>;
let dataTypes: Record<string, string>;

beforeAll(async () => {
  server = await TestServer.start();
  installer = await server.tokenFor('installer');
  sensorTypes = await server.catalog('/sensor-types', 'sensorTypeUuid');
  dataTypes = await server.catalog('/data-types-collects', 'dataTypesCollectUuid');
  ({ plantUuid } = await createPlant(server, installer, {
    location: { latitude: 45, longitude: 7, timezone: 'Europe/Rome' },
  }));
});
afterAll(async () => {
  await server?.close();
});

const body = (name: string, codes: string[], extra: Record<string, unknown> = {}) => ({
  name,
  flow: 'GRID',
  sensorTypeUuid: sensorTypes.POWER_METER,
  dataTypesCollectUuids: codes.map((code) => dataTypes[code]),
  ...extra,
});

describe('Sign inverted as the sensor form uses it', () => {
  test('created inverted on a power sensor, listed with the field, kept by an update without it', async () => {
    const created = await createSensor(
      server,
      installer,
      plantUuid,
      body('Grid meter', ['POWER', 'ENERGY'], { signInverted: true }),
    );
    expect(created.signInverted).toBe(true);

    const listed = expectStatus(
      await server.request('GET', `/plants/${plantUuid}/sensors`, {
        token: installer,
        query: { size: 1 },
      }),
      200,
      'list sensors',
    );
    expect(typeof listed.content[0].signInverted).toBe('boolean');

    const renamed = expectStatus(
      await server.request('PUT', `/plants/${plantUuid}/sensors/${created.sensorUuid}`, {
        token: installer,
        body: { name: 'Grid' },
      }),
      200,
      'rename',
    );
    expect(renamed.signInverted).toBe(true);
  });

  test('an energy counter is refused with a message naming the form field', async () => {
    const response = await server.request('POST', `/plants/${plantUuid}/sensors`, {
      token: installer,
      body: body('Energy counter', ['ENERGY'], { signInverted: true }),
    });
    expect(response.status).toBe(422);
    expect(fieldForMessage(response.body.message, SENSOR_FORM_FIELDS)).toBe('signInverted');
  });
});
