import { z } from 'zod';
import { defineRoute } from './route.ts';
import { metricsRoutes } from './metricsRoutes.ts';
import { fleetRoutes } from './fleetRoutes.ts';
import { dataHealthRoutes } from './dataHealthRoutes.ts';
import { permission as p } from './permissions.ts';
import { pageOf, Uuid } from './schemas/common.ts';
import {
  includeRelationshipsShape,
  listQueryShape,
  stringListParam,
  uuidListParam,
  uuidParam,
} from './schemas/query.ts';
import { CurrentUser, LoginRequest, TokenResponse } from './schemas/auth.ts';
import { Plant, PlantCreateDto, PlantUpdateDto } from './schemas/plants.ts';
import { DevicesCreateDto, DevicesUpdateDto } from './schemas/devices.ts';
import {
  connectionTestQueryShape,
  SensorConnectionTest,
  SensorCreateDto,
  SensorUpdateDto,
} from './schemas/sensors.ts';
import { Device, LoadSignature, Sensor } from './schemas/relationships.ts';
import {
  DataTypesCollect,
  DeviceType,
  DeviceTypeCreateDto,
  DeviceTypeUpdateDto,
  LoadSignatureCreateDto,
  LoadSignatureUpdateDto,
  SensorType,
  SensorTypeCreateDto,
  SensorTypeUpdateDto,
} from './schemas/catalogs.ts';
import {
  PlantVendor,
  PlantVendorConfigureDto,
  Vendor,
  VENDOR_LIST_MODES,
} from './schemas/vendors.ts';

const plantPath = z.object({ plantUuid: Uuid });
const devicePath = plantPath.extend({ deviceUuid: Uuid });
const sensorPath = plantPath.extend({ sensorUuid: Uuid });
const plantVendorPath = plantPath.extend({ vendorUuid: Uuid });

/** Every scalar property of a listed resource can order its list. */
const SORT = {
  plants: ['plantUuid', 'name', 'createdAt', 'updatedAt'],
  devices: [
    'deviceUuid',
    'name',
    'deviceTypeUuid',
    'vendorUuid',
    'model',
    'serialNumber',
    'ratedPowerW',
    'loadSignatureUuid',
    'createdAt',
    'updatedAt',
  ],
  sensors: [
    'sensorUuid',
    'deviceUuid',
    'name',
    'sensorTypeUuid',
    'flow',
    'samplingIntervalSeconds',
    'createdAt',
    'updatedAt',
  ],
  sensorTypes: ['sensorTypeUuid', 'code', 'name', 'description', 'createdAt', 'updatedAt'],
  deviceTypes: [
    'deviceTypeUuid',
    'code',
    'name',
    'category',
    'description',
    'createdAt',
    'updatedAt',
  ],
  loadSignatures: [
    'loadSignatureUuid',
    'code',
    'name',
    'description',
    'deviceTypeUuid',
    'typicalDailyKwh',
    'createdAt',
    'updatedAt',
  ],
  dataTypes: ['dataTypesCollectUuid', 'code', 'name', 'unit'],
  vendors: ['vendorUuid', 'code', 'name', 'kind'],
  plantVendors: ['vendorUuid', 'code', 'name', 'kind', 'configured', 'configuredAt'],
} as const;

/** The three editable catalogs share one shape of routes. */
interface CatalogSpec<Params extends z.ZodObject<z.ZodRawShape>> {
  tag: string;
  label: string;
  path: string;
  itemPath: string;
  params: Params;
  resource: 'SENSOR_TYPES' | 'DEVICE_TYPES' | 'LOAD_SIGNATURES';
  record: z.ZodType;
  create: z.ZodType;
  update: z.ZodType;
  query: z.ZodObject<z.ZodRawShape> | undefined;
  listQuery: z.ZodObject<z.ZodRawShape>;
  sortable: readonly string[];
}

function catalog<const C extends CatalogSpec<z.ZodObject<z.ZodRawShape>>>(spec: C): C {
  return spec;
}

const sensorTypes = catalog({
  tag: 'Sensor types',
  label: 'sensor type',
  path: '/sensor-types',
  itemPath: '/sensor-types/{sensorTypeUuid}',
  params: z.object({ sensorTypeUuid: Uuid }),
  resource: 'SENSOR_TYPES',
  record: SensorType,
  create: SensorTypeCreateDto,
  update: SensorTypeUpdateDto,
  query: undefined,
  listQuery: z.object({ ...listQueryShape(SORT.sensorTypes) }),
  sortable: SORT.sensorTypes,
});

const deviceTypes = catalog({
  tag: 'Device types',
  label: 'device type',
  path: '/device-types',
  itemPath: '/device-types/{deviceTypeUuid}',
  params: z.object({ deviceTypeUuid: Uuid }),
  resource: 'DEVICE_TYPES',
  record: DeviceType,
  create: DeviceTypeCreateDto,
  update: DeviceTypeUpdateDto,
  query: undefined,
  listQuery: z.object({ ...listQueryShape(SORT.deviceTypes) }),
  sortable: SORT.deviceTypes,
});

const loadSignatures = catalog({
  tag: 'Load signatures',
  label: 'load signature',
  path: '/load-signatures',
  itemPath: '/load-signatures/{loadSignatureUuid}',
  params: z.object({ loadSignatureUuid: Uuid }),
  resource: 'LOAD_SIGNATURES',
  record: LoadSignature,
  create: LoadSignatureCreateDto,
  update: LoadSignatureUpdateDto,
  query: z.object({ ...includeRelationshipsShape }),
  listQuery: z.object({ ...listQueryShape(SORT.loadSignatures), ...includeRelationshipsShape }),
  sortable: SORT.loadSignatures,
});

function catalogCreate<const C extends CatalogSpec<z.ZodObject<z.ZodRawShape>>>(c: C) {
  return defineRoute({
    operationId: `create${pascal(c.label)}`,
    method: 'POST',
    path: c.path as C['path'],
    tag: c.tag,
    summary: `Create a ${c.label}`,
    description: 'A code already used: 409. A reference to an unknown entity: 422.',
    auth: 'access',
    permissions: [p(c.resource, 'CREATE')],
    ownership: false,
    body: c.create as C['create'],
    status: 201,
    response: c.record as C['record'],
    extraErrors: [409, 422],
  });
}

function catalogList<const C extends CatalogSpec<z.ZodObject<z.ZodRawShape>>>(c: C) {
  return defineRoute({
    operationId: `list${pascal(c.label)}s`,
    method: 'GET',
    path: c.path as C['path'],
    tag: c.tag,
    summary: `List ${c.label}s`,
    auth: 'access',
    permissions: [p(c.resource, 'READ')],
    ownership: false,
    query: c.listQuery as C['listQuery'],
    sortable: c.sortable as C['sortable'],
    status: 200,
    response: pageOf(c.record as C['record']),
  });
}

function catalogGet<const C extends CatalogSpec<z.ZodObject<z.ZodRawShape>>>(c: C) {
  return defineRoute({
    operationId: `get${pascal(c.label)}`,
    method: 'GET',
    path: c.itemPath as C['itemPath'],
    tag: c.tag,
    summary: `Get a ${c.label}`,
    auth: 'access',
    permissions: [p(c.resource, 'READ')],
    ownership: false,
    params: c.params as C['params'],
    query: c.query as C['query'],
    status: 200,
    response: c.record as C['record'],
    extraErrors: [404],
  });
}

function catalogUpdate<const C extends CatalogSpec<z.ZodObject<z.ZodRawShape>>>(c: C) {
  return defineRoute({
    operationId: `update${pascal(c.label)}`,
    method: 'PUT',
    path: c.itemPath as C['itemPath'],
    tag: c.tag,
    summary: `Update a ${c.label}`,
    description: 'Fields left out keep their values. A code already used: 409.',
    auth: 'access',
    permissions: [p(c.resource, 'UPDATE')],
    ownership: false,
    params: c.params as C['params'],
    body: c.update as C['update'],
    status: 200,
    response: c.record as C['record'],
    extraErrors: [404, 409, 422],
  });
}

function catalogDelete<const C extends CatalogSpec<z.ZodObject<z.ZodRawShape>>>(c: C) {
  return defineRoute({
    operationId: `delete${pascal(c.label)}`,
    method: 'DELETE',
    path: c.itemPath as C['itemPath'],
    tag: c.tag,
    summary: `Delete a ${c.label}`,
    description: 'An entry still referenced: 409.',
    auth: 'access',
    permissions: [p(c.resource, 'DELETE')],
    ownership: false,
    params: c.params as C['params'],
    status: 204,
    extraErrors: [404, 409],
  });
}

function pascal(label: string): string {
  return label.replace(/(^|\s)(\w)/g, (_match, _space: string, letter: string) =>
    letter.toUpperCase(),
  );
}

/**
 * The route table: the Plant Energy API as this project implements it. The server registers
 * from it, the OpenAPI document is generated from it and the desktop client derives one typed
 * method per entry.
 */
export const routes = {
  // ── Authentication ──────────────────────────────────────────────────────────
  login: defineRoute({
    operationId: 'login',
    method: 'POST',
    path: '/auth/login',
    tag: 'Authentication',
    summary: 'Log in with e-mail and password',
    description:
      'Answers an access token and a rotating refresh token. Wrong credentials: 401. Too many failed attempts for an account from one address: 429.',
    auth: 'public',
    permissions: [],
    ownership: false,
    body: LoginRequest,
    status: 200,
    response: TokenResponse,
    extraErrors: [401, 429],
  }),
  refreshToken: defineRoute({
    operationId: 'refreshToken',
    method: 'GET',
    path: '/auth/token',
    tag: 'Authentication',
    summary: 'Exchange a refresh token for new tokens',
    description:
      'Send the refresh token as `Authorization: Bearer <refreshToken>`. Each refresh token is single-use; reusing a spent one revokes its whole family.',
    auth: 'refresh',
    permissions: [],
    ownership: false,
    status: 200,
    response: TokenResponse,
  }),
  logout: defineRoute({
    operationId: 'logout',
    method: 'POST',
    path: '/auth/logout',
    tag: 'Authentication',
    summary: 'Revoke a refresh token (extension)',
    description: 'Send the refresh token as bearer; its family is revoked.',
    auth: 'refresh',
    permissions: [],
    ownership: false,
    extension: 'decisions',
    status: 204,
  }),
  currentUser: defineRoute({
    operationId: 'currentUser',
    method: 'GET',
    path: '/auth/me',
    tag: 'Authentication',
    summary: 'The signed-in user and their permissions (extension)',
    auth: 'access',
    permissions: [],
    ownership: false,
    extension: 'decisions',
    status: 200,
    response: CurrentUser,
  }),

  // ── Plants ──────────────────────────────────────────────────────────────────
  createPlant: defineRoute({
    operationId: 'createPlant',
    method: 'POST',
    path: '/plants',
    tag: 'Plants',
    summary: 'Create a plant',
    auth: 'access',
    permissions: [p('PLANTS', 'CREATE')],
    ownership: false,
    body: PlantCreateDto,
    status: 201,
    response: Plant,
    extraErrors: [409],
  }),
  listPlants: defineRoute({
    operationId: 'listPlants',
    method: 'GET',
    path: '/plants',
    tag: 'Plants',
    summary: "List the organization's plants",
    auth: 'access',
    permissions: [p('PLANTS', 'READ')],
    ownership: false,
    query: z.object({
      ...listQueryShape(SORT.plants),
      plantUuids: uuidListParam('plantUuids').meta({
        description: 'Comma-separated or repeated plant UUIDs',
      }),
      externalIds: stringListParam().meta({
        description: 'Comma-separated or repeated external ids',
      }),
    }),
    sortable: SORT.plants,
    status: 200,
    response: pageOf(Plant),
  }),
  getPlant: defineRoute({
    operationId: 'getPlant',
    method: 'GET',
    path: '/plants/{plantUuid}',
    tag: 'Plants',
    summary: 'Get a plant',
    auth: 'access',
    permissions: [p('PLANTS', 'READ')],
    ownership: true,
    params: plantPath,
    status: 200,
    response: Plant,
  }),
  updatePlant: defineRoute({
    operationId: 'updatePlant',
    method: 'PUT',
    path: '/plants/{plantUuid}',
    tag: 'Plants',
    summary: "Update a plant's metadata and configuration",
    description: 'Fields left out keep their values; `pv: null` removes the PV settings.',
    auth: 'access',
    permissions: [p('PLANTS', 'UPDATE')],
    ownership: true,
    params: plantPath,
    body: PlantUpdateDto,
    status: 200,
    response: Plant,
    extraErrors: [409],
  }),
  deletePlant: defineRoute({
    operationId: 'deletePlant',
    method: 'DELETE',
    path: '/plants/{plantUuid}',
    tag: 'Plants',
    summary: 'Delete a plant with its devices, sensors, vendor configurations and readings',
    auth: 'access',
    permissions: [p('PLANTS', 'DELETE')],
    ownership: true,
    params: plantPath,
    status: 204,
  }),

  // ── Devices ─────────────────────────────────────────────────────────────────
  createDevice: defineRoute({
    operationId: 'createDevice',
    method: 'POST',
    path: '/plants/{plantUuid}/devices',
    tag: 'Devices',
    summary: 'Create a device',
    description:
      'An unknown device type, vendor or load signature: 422. A serial number already used in the plant: 409.',
    auth: 'access',
    permissions: [p('DEVICES', 'CREATE')],
    ownership: true,
    params: plantPath,
    body: DevicesCreateDto,
    status: 201,
    response: Device,
    extraErrors: [409, 422],
  }),
  listDevices: defineRoute({
    operationId: 'listDevices',
    method: 'GET',
    path: '/plants/{plantUuid}/devices',
    tag: 'Devices',
    summary: "List a plant's devices",
    auth: 'access',
    permissions: [p('DEVICES', 'READ')],
    ownership: true,
    params: plantPath,
    query: z.object({
      ...listQueryShape(SORT.devices),
      ...includeRelationshipsShape,
      deviceTypeUuid: uuidParam('deviceTypeUuid').meta({
        description: 'Only devices of this type',
      }),
    }),
    sortable: SORT.devices,
    status: 200,
    response: pageOf(Device),
  }),
  getDevice: defineRoute({
    operationId: 'getDevice',
    method: 'GET',
    path: '/plants/{plantUuid}/devices/{deviceUuid}',
    tag: 'Devices',
    summary: 'Get a device',
    auth: 'access',
    permissions: [p('DEVICES', 'READ')],
    ownership: true,
    params: devicePath,
    query: z.object({ ...includeRelationshipsShape }),
    status: 200,
    response: Device,
  }),
  updateDevice: defineRoute({
    operationId: 'updateDevice',
    method: 'PUT',
    path: '/plants/{plantUuid}/devices/{deviceUuid}',
    tag: 'Devices',
    summary: "Update a device's configuration and metadata",
    description: 'Fields left out keep their values; `null` clears an optional field.',
    auth: 'access',
    permissions: [p('DEVICES', 'UPDATE')],
    ownership: true,
    params: devicePath,
    body: DevicesUpdateDto,
    status: 200,
    response: Device,
    extraErrors: [409, 422],
  }),
  deleteDevice: defineRoute({
    operationId: 'deleteDevice',
    method: 'DELETE',
    path: '/plants/{plantUuid}/devices/{deviceUuid}',
    tag: 'Devices',
    summary: 'Delete a device; its sensors stay in the plant, unlinked',
    auth: 'access',
    permissions: [p('DEVICES', 'DELETE')],
    ownership: true,
    params: devicePath,
    status: 204,
  }),

  // ── Sensors ─────────────────────────────────────────────────────────────────
  createSensor: defineRoute({
    operationId: 'createSensor',
    method: 'POST',
    path: '/plants/{plantUuid}/sensors',
    tag: 'Sensors',
    summary: 'Create a sensor, optionally linked to a device',
    description:
      'A connection is tested against its vendor integration (422 on failure) unless `ignoreConnectionsTest=true`. An unknown sensor type, vendor, or a device of another plant: 422. Connection tests are limited per user (429 with Retry-After).',
    auth: 'access',
    permissions: [p('SENSORS', 'CREATE')],
    ownership: true,
    params: plantPath,
    query: z.object({ ...connectionTestQueryShape }),
    body: SensorCreateDto,
    status: 201,
    response: Sensor,
    extraErrors: [422, 429],
  }),
  listSensors: defineRoute({
    operationId: 'listSensors',
    method: 'GET',
    path: '/plants/{plantUuid}/sensors',
    tag: 'Sensors',
    summary: "List a plant's sensors",
    auth: 'access',
    permissions: [p('SENSORS', 'READ')],
    ownership: true,
    params: plantPath,
    query: z.object({
      ...listQueryShape(SORT.sensors),
      ...includeRelationshipsShape,
      dataTypesCollectUuid: uuidListParam('dataTypesCollectUuid').meta({
        description:
          'Only sensors collecting one of these data types (comma-separated or repeated)',
      }),
      deviceUuid: uuidParam('deviceUuid').meta({
        description: 'Only sensors linked to this device',
      }),
    }),
    sortable: SORT.sensors,
    status: 200,
    response: pageOf(Sensor),
  }),
  getSensor: defineRoute({
    operationId: 'getSensor',
    method: 'GET',
    path: '/plants/{plantUuid}/sensors/{sensorUuid}',
    tag: 'Sensors',
    summary: 'Get a sensor',
    auth: 'access',
    permissions: [p('SENSORS', 'READ')],
    ownership: true,
    params: sensorPath,
    query: z.object({ ...includeRelationshipsShape }),
    status: 200,
    response: Sensor,
  }),
  updateSensor: defineRoute({
    operationId: 'updateSensor',
    method: 'PUT',
    path: '/plants/{plantUuid}/sensors/{sensorUuid}',
    tag: 'Sensors',
    summary: "Update a sensor's configuration, associations or metadata",
    description:
      'Fields left out keep their values; `deviceUuid: null` unlinks the device. A changed connection is tested unless `ignoreConnectionsTest=true`.',
    auth: 'access',
    permissions: [p('SENSORS', 'UPDATE')],
    ownership: true,
    params: sensorPath,
    query: z.object({ ...connectionTestQueryShape }),
    body: SensorUpdateDto,
    status: 200,
    response: Sensor,
    extraErrors: [422, 429],
  }),
  deleteSensor: defineRoute({
    operationId: 'deleteSensor',
    method: 'DELETE',
    path: '/plants/{plantUuid}/sensors/{sensorUuid}',
    tag: 'Sensors',
    summary: 'Delete a sensor and its readings',
    auth: 'access',
    permissions: [p('SENSORS', 'DELETE')],
    ownership: true,
    params: sensorPath,
    status: 204,
  }),
  testSensorConnection: defineRoute({
    operationId: 'testSensorConnection',
    method: 'POST',
    path: '/plants/{plantUuid}/sensors/{sensorUuid}/connection-test',
    tag: 'Sensors',
    summary: "Test a sensor's stored connection again",
    description:
      'Extension: runs the same test as creating or updating the sensor, without changing it, and answers the result (`ok: false` with the reason when the test fails; a sensor without a connection is `ok: false` too). Commissioning verifies sensors with it. The server connects only to the ports each address scheme uses, and (unless it is set to allow private networks) never to loopback, private, link-local or multicast addresses; every failure to connect reads the same. Limited per user (429 with Retry-After).',
    auth: 'access',
    permissions: [p('SENSORS', 'READ')],
    ownership: true,
    extension: 'plantdesk',
    params: sensorPath,
    status: 200,
    response: SensorConnectionTest,
    extraErrors: [429],
  }),

  // ── Vendors of a plant ──────────────────────────────────────────────────────
  listPlantVendors: defineRoute({
    operationId: 'listPlantVendors',
    method: 'GET',
    path: '/plants/{plantUuid}/vendors',
    tag: 'Vendors',
    summary: 'Vendors configured for a plant, or available to it',
    description:
      '`mode=config`: configured vendors with their non-secret settings; `mode=not_config`: the others; no mode: all, each with `configured`.',
    auth: 'access',
    permissions: [p('PLANTS', 'READ')],
    ownership: true,
    params: plantPath,
    query: z.object({
      ...listQueryShape(SORT.plantVendors),
      mode: z
        .enum(VENDOR_LIST_MODES, { error: `mode must be one of ${VENDOR_LIST_MODES.join(', ')}` })
        .optional(),
    }),
    sortable: SORT.plantVendors,
    status: 200,
    response: pageOf(PlantVendor),
  }),
  configurePlantVendor: defineRoute({
    operationId: 'configurePlantVendor',
    method: 'PUT',
    path: '/plants/{plantUuid}/vendors/{vendorUuid}',
    tag: 'Vendors',
    summary: 'Configure a vendor integration for a plant (extension)',
    description:
      'Settings are checked against the vendor configSchema (422 when they do not fit). Secret fields are write-only.',
    auth: 'access',
    permissions: [p('PLANTS', 'UPDATE')],
    ownership: true,
    extension: 'decisions',
    params: plantVendorPath,
    body: PlantVendorConfigureDto,
    status: 200,
    response: PlantVendor,
    extraErrors: [422],
  }),
  unconfigurePlantVendor: defineRoute({
    operationId: 'unconfigurePlantVendor',
    method: 'DELETE',
    path: '/plants/{plantUuid}/vendors/{vendorUuid}',
    tag: 'Vendors',
    summary: 'Remove the configuration of a vendor from a plant (extension)',
    auth: 'access',
    permissions: [p('PLANTS', 'UPDATE')],
    ownership: true,
    extension: 'decisions',
    params: plantVendorPath,
    status: 204,
  }),
  listVendors: defineRoute({
    operationId: 'listVendors',
    method: 'GET',
    path: '/vendors',
    tag: 'Vendors',
    summary: 'The vendor catalog (extension)',
    auth: 'access',
    permissions: [],
    ownership: false,
    extension: 'decisions',
    query: z.object({ ...listQueryShape(SORT.vendors) }),
    sortable: SORT.vendors,
    status: 200,
    response: pageOf(Vendor),
  }),

  // ── Configuration catalogs ──────────────────────────────────────────────────
  createSensorType: catalogCreate(sensorTypes),
  listSensorTypes: catalogList(sensorTypes),
  getSensorType: catalogGet(sensorTypes),
  updateSensorType: catalogUpdate(sensorTypes),
  deleteSensorType: catalogDelete(sensorTypes),

  createDeviceType: catalogCreate(deviceTypes),
  listDeviceTypes: catalogList(deviceTypes),
  getDeviceType: catalogGet(deviceTypes),
  updateDeviceType: catalogUpdate(deviceTypes),
  deleteDeviceType: catalogDelete(deviceTypes),

  createLoadSignature: catalogCreate(loadSignatures),
  listLoadSignatures: catalogList(loadSignatures),
  getLoadSignature: catalogGet(loadSignatures),
  updateLoadSignature: catalogUpdate(loadSignatures),
  deleteLoadSignature: catalogDelete(loadSignatures),

  listDataTypesCollects: defineRoute({
    operationId: 'listDataTypesCollects',
    method: 'GET',
    path: '/data-types-collects',
    tag: 'Data types collects',
    summary: 'The data types sensors can collect (read-only)',
    auth: 'access',
    permissions: [p('DATA_TYPES_COLLECT', 'READ')],
    ownership: false,
    query: z.object({ ...listQueryShape(SORT.dataTypes) }),
    sortable: SORT.dataTypes,
    status: 200,
    response: pageOf(DataTypesCollect),
  }),

  // ── Measurements and metrics ────────────────────────────────────────────────
  ...metricsRoutes,

  // ── Fleet monitoring ────────────────────────────────────────────────────────
  ...fleetRoutes,
  ...dataHealthRoutes,
};

export type Routes = typeof routes;
export type RouteId = keyof Routes;
