import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  permissionRequiredMessage,
  routes,
  type Permission,
  type RouteId,
  type RouteSpec,
} from '../../api/index.ts';
import { DEMO_ORGANIZATIONS } from '../../server/demo/accounts.ts';
import {
  configurePlantVendor,
  createCatalogEntry,
  createDevice,
  createPlant,
  createSensor,
  freshLogin,
  uniqueCode,
} from '../support/entities.ts';
import { referenceUuids, type ReferenceUuids } from '../support/referenceData.ts';
import {
  DEMO_ACCOUNTS,
  expectErrorBody,
  MISSING_UUID,
  newPlantBody,
  TestServer,
  type DemoRole,
} from '../support/testServer.ts';

/**
 * Every route × every demo account × (for plant routes) a plant of each organization. The
 * expected status is derived from the route table, the demo roles and ownership alone, so a new
 * route is covered as soon as it has a fixture (and the fixture table does not compile without).
 */

type Account = (typeof DEMO_ACCOUNTS)[number];
type Organization = Account['organization'];

interface CaseContext {
  account: Account;
  /** The plant the case targets, for plant routes. */
  plantUuid: string;
  plantOrganization: Organization;
  /** A token of the plant's organization that may create anything in it. */
  plantOwnerToken: string;
}

interface PreparedRequest {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  /** Replaces the account's access token (refresh routes, login). */
  token?: string | null;
}

type Fixture = (context: CaseContext) => Promise<PreparedRequest>;

let server: TestServer;
let reference: ReferenceUuids;
const plants = {} as Record<Organization, string>;
const tokens = {} as Record<DemoRole, string>;

const roleOf = (account: Account) => account.email.split('@')[0] as DemoRole;
const adminToken = () => tokens.admin;

async function freshCatalogEntry(path: '/sensor-types' | '/device-types' | '/load-signatures') {
  return createCatalogEntry(server, adminToken(), path, { code: uniqueCode('matrix') });
}

async function freshDevice({ plantUuid, plantOwnerToken }: CaseContext) {
  return createDevice(server, plantOwnerToken, plantUuid, {
    deviceTypeUuid: reference.deviceTypes.INVERTER,
  });
}

async function freshSensor({ plantUuid, plantOwnerToken }: CaseContext) {
  return createSensor(server, plantOwnerToken, plantUuid, {
    sensorTypeUuid: reference.sensorTypes.POWER_METER,
  });
}

const plantParams = ({ plantUuid }: CaseContext) => ({ plantUuid });

/** The minimal valid request of each route, with fresh child entities where one is consumed. */
const fixtures: Record<RouteId, Fixture> = {
  login: async ({ account }) => ({
    token: null,
    body: { email: account.email, password: account.password },
  }),
  refreshToken: async ({ account }) => ({
    token: (await freshLogin(server, account.email, account.password)).refreshToken,
  }),
  logout: async ({ account }) => ({
    token: (await freshLogin(server, account.email, account.password)).refreshToken,
  }),
  currentUser: async () => ({}),

  createPlant: async () => ({ body: newPlantBody() }),
  listPlants: async () => ({}),
  getPlant: async (context) => ({ params: plantParams(context) }),
  updatePlant: async (context) => ({ params: plantParams(context), body: {} }),
  deletePlant: async ({ plantOwnerToken }) => ({
    // Deleting consumes the plant: a fresh one of the same organization per case.
    params: { plantUuid: (await createPlant(server, plantOwnerToken)).plantUuid },
  }),

  createDevice: async (context) => ({
    params: plantParams(context),
    body: { deviceTypeUuid: reference.deviceTypes.INVERTER },
  }),
  listDevices: async (context) => ({ params: plantParams(context) }),
  getDevice: async (context) => ({
    params: { ...plantParams(context), deviceUuid: (await freshDevice(context)).deviceUuid },
  }),
  updateDevice: async (context) => ({
    params: { ...plantParams(context), deviceUuid: (await freshDevice(context)).deviceUuid },
    body: { name: 'Renamed by the matrix' },
  }),
  deleteDevice: async (context) => ({
    params: { ...plantParams(context), deviceUuid: (await freshDevice(context)).deviceUuid },
  }),

  createSensor: async (context) => ({
    params: plantParams(context),
    body: { sensorTypeUuid: reference.sensorTypes.POWER_METER },
  }),
  listSensors: async (context) => ({ params: plantParams(context) }),
  getSensor: async (context) => ({
    params: { ...plantParams(context), sensorUuid: (await freshSensor(context)).sensorUuid },
  }),
  updateSensor: async (context) => ({
    params: { ...plantParams(context), sensorUuid: (await freshSensor(context)).sensorUuid },
    body: { name: 'Renamed by the matrix' },
  }),
  deleteSensor: async (context) => ({
    params: { ...plantParams(context), sensorUuid: (await freshSensor(context)).sensorUuid },
  }),
  testSensorConnection: async (context) => ({
    params: { ...plantParams(context), sensorUuid: (await freshSensor(context)).sensorUuid },
  }),

  listPlantVendors: async (context) => ({ params: plantParams(context) }),
  configurePlantVendor: async (context) => ({
    params: { ...plantParams(context), vendorUuid: reference.vendors.SIMULATOR! },
    body: { settings: {} },
  }),
  unconfigurePlantVendor: async (context) => {
    // Unconfiguring needs a configuration to remove.
    const vendorUuid = reference.vendors.SIMULATOR!;
    await configurePlantVendor(server, context.plantOwnerToken, context.plantUuid, vendorUuid);
    return { params: { ...plantParams(context), vendorUuid } };
  },
  listVendors: async () => ({}),

  createSensorType: async () => ({ body: { code: uniqueCode('st') } }),
  listSensorTypes: async () => ({}),
  getSensorType: async () => ({
    params: { sensorTypeUuid: (await freshCatalogEntry('/sensor-types')).sensorTypeUuid },
  }),
  updateSensorType: async () => ({
    params: { sensorTypeUuid: (await freshCatalogEntry('/sensor-types')).sensorTypeUuid },
    body: { name: 'Renamed by the matrix' },
  }),
  deleteSensorType: async () => ({
    params: { sensorTypeUuid: (await freshCatalogEntry('/sensor-types')).sensorTypeUuid },
  }),

  createDeviceType: async () => ({ body: { code: uniqueCode('dt') } }),
  listDeviceTypes: async () => ({}),
  getDeviceType: async () => ({
    params: { deviceTypeUuid: (await freshCatalogEntry('/device-types')).deviceTypeUuid },
  }),
  updateDeviceType: async () => ({
    params: { deviceTypeUuid: (await freshCatalogEntry('/device-types')).deviceTypeUuid },
    body: { name: 'Renamed by the matrix' },
  }),
  deleteDeviceType: async () => ({
    params: { deviceTypeUuid: (await freshCatalogEntry('/device-types')).deviceTypeUuid },
  }),

  createLoadSignature: async () => ({ body: { code: uniqueCode('ls') } }),
  listLoadSignatures: async () => ({}),
  getLoadSignature: async () => ({
    params: { loadSignatureUuid: (await freshCatalogEntry('/load-signatures')).loadSignatureUuid },
  }),
  updateLoadSignature: async () => ({
    params: { loadSignatureUuid: (await freshCatalogEntry('/load-signatures')).loadSignatureUuid },
    body: { name: 'Renamed by the matrix' },
  }),
  deleteLoadSignature: async () => ({
    params: { loadSignatureUuid: (await freshCatalogEntry('/load-signatures')).loadSignatureUuid },
  }),

  listDataTypesCollects: async () => ({}),

  ingestReadings: async (context) => ({
    params: { ...plantParams(context), sensorUuid: (await freshSensor(context)).sensorUuid },
    body: { readings: [{ timestamp: '2026-11-20T12:00:00Z', value: 1500 }] },
  }),
  dailyConsumption: async (context) => ({ params: plantParams(context) }),
  hourlyConsumption: async (context) => ({ params: plantParams(context) }),
  summaryConsumption: async (context) => ({
    params: plantParams(context),
    query: { startDate: '2026-11-01', endDate: '2026-11-07' },
  }),
  predictConsumption: async (context) => ({ params: plantParams(context) }),
  dailyProduction: async (context) => ({ params: plantParams(context) }),
  hourlyProduction: async (context) => ({ params: plantParams(context) }),
  summaryProduction: async (context) => ({
    params: plantParams(context),
    query: { startDate: '2026-11-01', endDate: '2026-11-07' },
  }),
  predictProduction: async ({ plantOwnerToken }) => ({
    // Production forecasts need PV settings, which the Other Co plant does not have.
    params: {
      plantUuid: (
        await createPlant(server, plantOwnerToken, {
          pv: { peakPowerKw: 5, tiltDeg: 30, azimuthDeg: 180, lossesPercent: 14 },
        })
      ).plantUuid,
    },
  }),
  predictByDeviceType: async (context) => ({ params: plantParams(context) }),
  historyConsumption: async (context) => ({
    params: plantParams(context),
    query: { startDate: '2026-11-20T00:00', endDate: '2026-11-20T06:00' },
  }),
  historyProduction: async (context) => ({
    params: plantParams(context),
    query: { startDate: '2026-11-20T00:00', endDate: '2026-11-20T06:00' },
  }),
  energyBreakdown: async (context) => ({
    params: plantParams(context),
    query: { startDate: '2026-11-20T00:00', endDate: '2026-11-21T00:00' },
  }),
  pvHealth: async (context) => ({ params: plantParams(context) }),

  listPlantSummaries: async () => ({}),
  listSensorStatuses: async (context) => ({ params: plantParams(context) }),
  getDataHealth: async (context) => ({ params: plantParams(context) }),
};

const ROUTES = Object.entries(routes as Record<RouteId, RouteSpec>) as [RouteId, RouteSpec][];
const isPlantRoute = (route: RouteSpec) => route.path.includes('{plantUuid}');

interface Expected {
  status: number;
  message?: string;
}

/**
 * Routes of one catalog entry. The matrix's entries are Demo Energy's own (created by its
 * admin), so for any other organization they are as unknown as a missing one.
 */
const isCatalogEntryRoute = (route: RouteSpec) =>
  /\{(sensorTypeUuid|deviceTypeUuid|loadSignatureUuid)\}/.test(route.path);

/**
 * What the decisions file prescribes: 403 for the first missing permission (in route order),
 * else 404 for a plant (or an organization's catalog entry) of another organization, else the
 * route's success status.
 */
function expectedOutcome(
  route: RouteSpec,
  account: Account,
  plantOrganization: Organization | null,
): Expected {
  const missing = route.permissions.find(
    (name) => !(account.permissions as readonly Permission[]).includes(name),
  );
  if (missing) return { status: 403, message: permissionRequiredMessage(missing) };
  if (plantOrganization !== null && plantOrganization !== account.organization) {
    return { status: 404 };
  }
  if (isCatalogEntryRoute(route) && account.organization !== 'demo') return { status: 404 };
  return { status: route.status };
}

function concretePath(path: string, params: Record<string, string> = {}): string {
  return path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`fixture gave no value for {${name}} in ${path}`);
    return encodeURIComponent(value);
  });
}

interface MatrixCase {
  name: string;
  id: RouteId;
  route: RouteSpec;
  account: Account;
  plantOrganization: Organization | null;
  expected: Expected;
}

const cases: MatrixCase[] = ROUTES.flatMap(([id, route]) =>
  DEMO_ACCOUNTS.flatMap((account) =>
    (isPlantRoute(route) ? (['demo', 'other'] as const) : [null]).map((plantOrganization) => {
      const expected = expectedOutcome(route, account, plantOrganization);
      const where =
        plantOrganization === null ? '' : ` on a plant of ${DEMO_ORGANIZATIONS[plantOrganization]}`;
      return {
        name: `${id}: ${route.method} ${route.path} as ${roleOf(account)}${where} → ${expected.status}`,
        id,
        route,
        account,
        plantOrganization,
        expected,
      };
    }),
  ),
);

beforeAll(async () => {
  server = await TestServer.start();
  for (const account of DEMO_ACCOUNTS)
    tokens[roleOf(account)] = await server.tokenFor(roleOf(account));
  reference = await referenceUuids(server);
  plants.demo = await server.demoPlantUuid();
  plants.other = (await createPlant(server, tokens.outsider, { name: 'Other Co plant' })).plantUuid;
});

afterAll(async () => {
  await server?.close();
});

describe('the route table', () => {
  test('every route that names a plant requires ownership', () => {
    const unowned = ROUTES.filter(([, route]) => isPlantRoute(route) && !route.ownership);
    expect(unowned.map(([id]) => id)).toEqual([]);
  });

  test('the matrix covers every route for every account', () => {
    expect(new Set(cases.map((c) => c.id))).toEqual(new Set(Object.keys(routes)));
    expect(new Set(cases.map((c) => c.name)).size).toBe(cases.length);
  });

  test('every demo role appears as expected: admin passes every permission check', () => {
    const adminDenied = cases.filter(
      (c) => roleOf(c.account) === 'admin' && c.expected.status === 403,
    );
    expect(adminDenied).toEqual([]);
  });
});

describe('permission × ownership matrix', () => {
  // `%s` with a string keeps the whole name (`$name` would be cut at 40 characters).
  test.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const { id, route, account, plantOrganization, expected } = c;
    const ownerToken = plantOrganization === 'other' ? tokens.outsider : tokens.admin;
    const prepared = await fixtures[id]({
      account,
      plantUuid: plants[plantOrganization ?? 'demo'],
      plantOrganization: plantOrganization ?? 'demo',
      plantOwnerToken: ownerToken,
    });
    const path = concretePath(route.path, prepared.params);
    const token = prepared.token !== undefined ? prepared.token : tokens[roleOf(account)];
    const response = await server.request(route.method, path, {
      token,
      body: prepared.body,
      query: prepared.query,
    });

    if (expected.status >= 400) {
      const error = expectErrorBody(response, expected.status, path);
      if (expected.message) expect(error.message).toBe(expected.message);
      if (expected.status === 404) {
        const target = prepared.params?.plantUuid ?? Object.values(prepared.params ?? {})[0];
        expect(error.message).toContain(target);
      }
      return;
    }
    expect(response.status, JSON.stringify(response.body)).toBe(expected.status);
    if (route.response) route.response.parse(response.body);
    else expect(response.body).toBe('');
  });
});

describe('no token', () => {
  const protectedRoutes = ROUTES.filter(([, route]) => route.auth !== 'public');

  test.each(
    protectedRoutes.map(
      ([id, route]) => [`${id}: ${route.method} ${route.path} → 401`, route] as const,
    ),
  )('%s', async (_name, route) => {
    const path = route.path.replace(/\{(\w+)\}/g, (_match, name: string) =>
      name === 'plantUuid' ? plants.demo : MISSING_UUID,
    );
    for (const token of [null, 'not-a-jwt']) {
      const response = await server.request(route.method, path, {
        token,
        body: route.body ? {} : undefined,
      });
      expectErrorBody(response, 401, path);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
    }
  });

  test('the public route needs none', () => {
    expect(ROUTES.filter(([, route]) => route.auth === 'public').map(([id]) => id)).toEqual([
      'login',
    ]);
  });
});
