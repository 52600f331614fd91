import {
  ALL_PERMISSIONS,
  ALL_READ_PERMISSIONS,
  ORGANIZATION_PERMISSIONS,
  type Permission,
} from '../../api/index.ts';

/** The demo roles of the decisions file, derived from the one permission table. */
const INSTALLER_PERMISSIONS: readonly Permission[] = [
  ...new Set<Permission>([
    ...ALL_PERMISSIONS.filter((name) => /^(PLANTS|DEVICES|SENSORS) /.test(name)),
    'READINGS CREATE',
    ...ALL_READ_PERMISSIONS,
  ]),
];

export const DEMO_ORGANIZATIONS = {
  demo: 'Demo Energy',
  other: 'Other Co',
  platform: 'PlantDesk Platform',
} as const;

export const DEMO_ACCOUNTS = [
  {
    email: 'admin@plantdesk.test',
    password: 'admin-pass-1',
    displayName: 'Ada Admin',
    organization: 'demo',
    // An organization's administrator: everything but the platform's shared reference catalogs.
    permissions: ORGANIZATION_PERMISSIONS,
  },
  {
    email: 'installer@plantdesk.test',
    password: 'installer-pass-1',
    displayName: 'Ivo Installer',
    organization: 'demo',
    permissions: INSTALLER_PERMISSIONS,
  },
  {
    email: 'manager@plantdesk.test',
    password: 'manager-pass-1',
    displayName: 'Mia Manager',
    organization: 'demo',
    permissions: ALL_READ_PERMISSIONS,
  },
  {
    email: 'outsider@plantdesk.test',
    password: 'outsider-pass-1',
    displayName: 'Otto Outsider',
    organization: 'other',
    permissions: INSTALLER_PERMISSIONS,
  },
  {
    email: 'operator@plantdesk.test',
    password: 'operator-pass-1',
    displayName: 'Oli Operator',
    organization: 'platform',
    // The platform's operator: also writes the reference entries every organization shares.
    permissions: ALL_PERMISSIONS,
  },
] as const satisfies readonly {
  email: string;
  password: string;
  displayName: string;
  organization: keyof typeof DEMO_ORGANIZATIONS;
  permissions: readonly Permission[];
}[];
