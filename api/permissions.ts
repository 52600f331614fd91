/**
 * The one table of permission names. The server's checks, the demo roles, the route table and
 * the desktop client's "disabled because" tooltips all derive from it.
 */
export const PERMISSION_ACTIONS = ['CREATE', 'READ', 'UPDATE', 'DELETE'] as const;
export type PermissionAction = (typeof PERMISSION_ACTIONS)[number];

const CRUD = PERMISSION_ACTIONS;

export const PERMISSION_RESOURCES = {
  PLANTS: CRUD,
  DEVICES: CRUD,
  SENSORS: CRUD,
  SENSOR_TYPES: CRUD,
  DEVICE_TYPES: CRUD,
  LOAD_SIGNATURES: CRUD,
  DATA_TYPES_COLLECT: ['READ'],
  PLANT_POWER_CONSUMPTION: ['READ'],
  PLANT_POWER_PRODUCTION: ['READ'],
  DAILY_PREDICTIONS: ['READ'],
  PLANT_HEALTH: ['READ'],
  READINGS: ['CREATE'],
  /**
   * Platform level: writing the reference entries of the catalogs, shared by every organization.
   * Never granted to an organization's accounts (ORGANIZATION_PERMISSIONS).
   */
  REFERENCE_CATALOGS: ['CREATE', 'UPDATE', 'DELETE'],
} as const satisfies Record<string, readonly PermissionAction[]>;

export type PermissionResource = keyof typeof PERMISSION_RESOURCES;

type PermissionOf<R extends PermissionResource> =
  `${R} ${(typeof PERMISSION_RESOURCES)[R][number]}`;
export type Permission = { [R in PermissionResource]: PermissionOf<R> }[PermissionResource];

export function permission<R extends PermissionResource>(
  resource: R,
  action: (typeof PERMISSION_RESOURCES)[R][number],
): Permission {
  return `${resource} ${action}` as Permission;
}

export const ALL_PERMISSIONS: readonly Permission[] = Object.entries(PERMISSION_RESOURCES).flatMap(
  ([resource, actions]) => actions.map((action) => `${resource} ${action}` as Permission),
);

export function isPermission(value: string): value is Permission {
  return (ALL_PERMISSIONS as readonly string[]).includes(value);
}

/** Permissions over what all organizations share: only the platform's operators hold them. */
export const PLATFORM_PERMISSIONS: readonly Permission[] = ALL_PERMISSIONS.filter((p) =>
  p.startsWith('REFERENCE_CATALOGS '),
);

/** Everything an organization's administrator may hold. */
export const ORGANIZATION_PERMISSIONS: readonly Permission[] = ALL_PERMISSIONS.filter(
  (p) => !PLATFORM_PERMISSIONS.includes(p),
);

/** Every READ permission of the table: what "every READ" means in the demo roles. */
export const ALL_READ_PERMISSIONS: readonly Permission[] = ALL_PERMISSIONS.filter((p) =>
  p.endsWith(' READ'),
);

/** The message of a 403 for a missing permission, as the decisions file words it. */
export function permissionRequiredMessage(missing: Permission): string {
  return `Permission ${missing} required`;
}
