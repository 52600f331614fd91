import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createPlant } from '../support/entities.ts';
import { TestServer } from '../support/testServer.ts';

/**
 * The plant list's bytes, searched and not, for crafted plants: text that JSON must escape
 * (quotes, backslashes, tabs, a line separator), text beyond ASCII and beyond the BMP, numbers
 * with many digits and below zero, absent and partial PV settings, nested metadata. The bodies
 * are compared as text with what the list answered before its rows were read any faster (the
 * plants' uuids, which each run generates, replaced by their order of first appearance), so a
 * faster read or encoding cannot change an answer by a byte. Runs on both engines.
 */

let server: TestServer;
let token: string;
let clockMs = Date.parse('2026-03-31T10:20:00Z');

beforeAll(async () => {
  server = await TestServer.start({ now: () => new Date(clockMs) });
  token = await server.tokenFor('installer');
  const plants = [
    {
      name: 'Crafted "quoted" \\ back\tslash',
      externalIds: ['CRAFTED-1', 'tab\there'],
      location: {
        latitude: 45.123456789012344,
        longitude: -0.5,
        timezone: 'Europe/Rome',
        altitudeM: 250.5,
      },
      pv: { peakPowerKw: 7.25, tiltDeg: 30, azimuthDeg: 170, lossesPercent: 14 },
      metadata: { note: 'ü\u2028x', nested: { a: [1, 2.5, null, true] } },
    },
    {
      name: 'Ölmühle crafted 🌞',
      externalIds: [],
      location: { latitude: -33.9, longitude: 151.2, timezone: 'Australia/Sydney' },
    },
    {
      name: 'Zeta',
      externalIds: ['crafted-z', 'Ünï'],
      location: { latitude: 0.1, longitude: 1e-7, timezone: 'UTC' },
      pv: { peakPowerKw: 0.1 },
      metadata: {},
    },
  ];
  for (const plant of plants) {
    clockMs += 61_000;
    await createPlant(server, token, plant);
  }
});

afterAll(async () => {
  await server?.close();
});

/** What each list answered before (commit 037a063), uuids replaced as `listText` does. */
const BEFORE: Record<string, string> = {
  'search=crafted':
    '{"content":[{"plantUuid":"<0>","name":"Crafted \\"quoted\\" \\\\ back\\tslash","externalIds":["CRAFTED-1","tab\\there"],"location":{"latitude":45.123456789012344,"longitude":-0.5,"timezone":"Europe/Rome","altitudeM":250.5},"pv":{"peakPowerKw":7.25,"tiltDeg":30,"azimuthDeg":170,"lossesPercent":14},"metadata":{"note":"\u00fc\u2028x","nested":{"a":[1,2.5,null,true]}},"createdAt":"2026-03-31T10:21:01.000Z","updatedAt":"2026-03-31T10:21:01.000Z"},{"plantUuid":"<1>","name":"Zeta","externalIds":["crafted-z","\u00dcn\u00ef"],"location":{"latitude":0.1,"longitude":1e-7,"timezone":"UTC","altitudeM":null},"pv":{"peakPowerKw":0.1,"tiltDeg":30,"azimuthDeg":180,"lossesPercent":14},"metadata":{},"createdAt":"2026-03-31T10:23:03.000Z","updatedAt":"2026-03-31T10:23:03.000Z"},{"plantUuid":"<2>","name":"\u00d6lm\u00fchle crafted \ud83c\udf1e","externalIds":[],"location":{"latitude":-33.9,"longitude":151.2,"timezone":"Australia/Sydney","altitudeM":null},"pv":null,"metadata":{},"createdAt":"2026-03-31T10:22:02.000Z","updatedAt":"2026-03-31T10:22:02.000Z"}],"page":{"number":0,"size":20,"totalElements":3,"totalPages":1}}',
  'search=CRAFTED&size=2&page=1':
    '{"content":[{"plantUuid":"<0>","name":"\u00d6lm\u00fchle crafted \ud83c\udf1e","externalIds":[],"location":{"latitude":-33.9,"longitude":151.2,"timezone":"Australia/Sydney","altitudeM":null},"pv":null,"metadata":{},"createdAt":"2026-03-31T10:22:02.000Z","updatedAt":"2026-03-31T10:22:02.000Z"}],"page":{"number":1,"size":2,"totalElements":3,"totalPages":2}}',
  'search=cr&sort=createdAt,desc':
    '{"content":[{"plantUuid":"<0>","name":"Zeta","externalIds":["crafted-z","\u00dcn\u00ef"],"location":{"latitude":0.1,"longitude":1e-7,"timezone":"UTC","altitudeM":null},"pv":{"peakPowerKw":0.1,"tiltDeg":30,"azimuthDeg":180,"lossesPercent":14},"metadata":{},"createdAt":"2026-03-31T10:23:03.000Z","updatedAt":"2026-03-31T10:23:03.000Z"},{"plantUuid":"<1>","name":"\u00d6lm\u00fchle crafted \ud83c\udf1e","externalIds":[],"location":{"latitude":-33.9,"longitude":151.2,"timezone":"Australia/Sydney","altitudeM":null},"pv":null,"metadata":{},"createdAt":"2026-03-31T10:22:02.000Z","updatedAt":"2026-03-31T10:22:02.000Z"},{"plantUuid":"<2>","name":"Crafted \\"quoted\\" \\\\ back\\tslash","externalIds":["CRAFTED-1","tab\\there"],"location":{"latitude":45.123456789012344,"longitude":-0.5,"timezone":"Europe/Rome","altitudeM":250.5},"pv":{"peakPowerKw":7.25,"tiltDeg":30,"azimuthDeg":170,"lossesPercent":14},"metadata":{"note":"\u00fc\u2028x","nested":{"a":[1,2.5,null,true]}},"createdAt":"2026-03-31T10:21:01.000Z","updatedAt":"2026-03-31T10:21:01.000Z"}],"page":{"number":0,"size":20,"totalElements":3,"totalPages":1}}',
  'search=%C3%BCn':
    '{"content":[{"plantUuid":"<0>","name":"Zeta","externalIds":["crafted-z","\u00dcn\u00ef"],"location":{"latitude":0.1,"longitude":1e-7,"timezone":"UTC","altitudeM":null},"pv":{"peakPowerKw":0.1,"tiltDeg":30,"azimuthDeg":180,"lossesPercent":14},"metadata":{},"createdAt":"2026-03-31T10:23:03.000Z","updatedAt":"2026-03-31T10:23:03.000Z"}],"page":{"number":0,"size":20,"totalElements":1,"totalPages":1}}',
  'search=nothing-at-all':
    '{"content":[],"page":{"number":0,"size":20,"totalElements":0,"totalPages":0}}',
  'size=2':
    '{"content":[{"plantUuid":"<0>","name":"Crafted \\"quoted\\" \\\\ back\\tslash","externalIds":["CRAFTED-1","tab\\there"],"location":{"latitude":45.123456789012344,"longitude":-0.5,"timezone":"Europe/Rome","altitudeM":250.5},"pv":{"peakPowerKw":7.25,"tiltDeg":30,"azimuthDeg":170,"lossesPercent":14},"metadata":{"note":"\u00fc\u2028x","nested":{"a":[1,2.5,null,true]}},"createdAt":"2026-03-31T10:21:01.000Z","updatedAt":"2026-03-31T10:21:01.000Z"},{"plantUuid":"<1>","name":"Demo Home","externalIds":["DEMO-HOME-001"],"location":{"latitude":46.4983,"longitude":11.3548,"timezone":"Europe/Rome","altitudeM":262},"pv":{"peakPowerKw":8.4,"tiltDeg":30,"azimuthDeg":180,"lossesPercent":14},"metadata":{"address":"Via dei Campi 12, Bolzano","householdSize":4,"commissionedBy":"PlantDesk demo"},"createdAt":"2026-03-31T10:20:00.000Z","updatedAt":"2026-03-31T10:20:00.000Z"}],"page":{"number":0,"size":2,"totalElements":4,"totalPages":2}}',
  'size=2&page=1&sort=name,desc':
    '{"content":[{"plantUuid":"<0>","name":"Demo Home","externalIds":["DEMO-HOME-001"],"location":{"latitude":46.4983,"longitude":11.3548,"timezone":"Europe/Rome","altitudeM":262},"pv":{"peakPowerKw":8.4,"tiltDeg":30,"azimuthDeg":180,"lossesPercent":14},"metadata":{"address":"Via dei Campi 12, Bolzano","householdSize":4,"commissionedBy":"PlantDesk demo"},"createdAt":"2026-03-31T10:20:00.000Z","updatedAt":"2026-03-31T10:20:00.000Z"},{"plantUuid":"<1>","name":"Crafted \\"quoted\\" \\\\ back\\tslash","externalIds":["CRAFTED-1","tab\\there"],"location":{"latitude":45.123456789012344,"longitude":-0.5,"timezone":"Europe/Rome","altitudeM":250.5},"pv":{"peakPowerKw":7.25,"tiltDeg":30,"azimuthDeg":170,"lossesPercent":14},"metadata":{"note":"\u00fc\u2028x","nested":{"a":[1,2.5,null,true]}},"createdAt":"2026-03-31T10:21:01.000Z","updatedAt":"2026-03-31T10:21:01.000Z"}],"page":{"number":1,"size":2,"totalElements":4,"totalPages":2}}',
};

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** The body as text, each uuid replaced by `<n>`, n its order of first appearance. */
async function listText(query: string): Promise<string> {
  const response = await fetch(new URL(`/plants?${query}`, server.url), {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(200);
  const seen = new Map<string, number>();
  return (await response.text()).replace(UUID, (uuid) => {
    if (!seen.has(uuid)) seen.set(uuid, seen.size);
    return `<${seen.get(uuid)}>`;
  });
}

describe('the plant list answers the same bytes', () => {
  test.each(Object.entries(BEFORE))('GET /plants?%s', async (query, expected) => {
    expect(await listText(query)).toBe(expected);
  });
});
