import type { Permission } from '../../api/index.ts';
import { createUser } from '../../server/features/auth/userStore.ts';
import type { ApiResponse, TestServer } from './testServer.ts';
import { newPlantBody } from './testServer.ts';

/**
 * Creating entities through the API for tests that need them as fixtures. Each helper fails
 * with the answer's status and body, so a broken fixture is told apart from a failing check.
 */

export function expectStatus<T = any>(response: ApiResponse, status: number, what: string): T {
  if (response.status !== status) {
    throw new Error(
      `${what}: expected ${status}, got ${response.status}: ${JSON.stringify(response.body)}`,
    );
  }
  return response.body as T;
}

let sequence = 0;
/** A code or name no other test uses (catalog codes are unique). */
export function uniqueCode(prefix: string): string {
  sequence += 1;
  return `${prefix}_${process.pid}_${Date.now().toString(36)}_${sequence}`.toUpperCase();
}

export async function createPlant(
  server: TestServer,
  token: string,
  overrides: Record<string, unknown> = {},
): Promise<any> {
  const response = await server.request('POST', '/plants', {
    token,
    body: newPlantBody(overrides),
  });
  return expectStatus(response, 201, 'create plant');
}

export async function createDevice(
  server: TestServer,
  token: string,
  plantUuid: string,
  body: Record<string, unknown>,
): Promise<any> {
  const response = await server.request('POST', `/plants/${plantUuid}/devices`, { token, body });
  return expectStatus(response, 201, 'create device');
}

export async function createSensor(
  server: TestServer,
  token: string,
  plantUuid: string,
  body: Record<string, unknown>,
): Promise<any> {
  const response = await server.request('POST', `/plants/${plantUuid}/sensors`, { token, body });
  return expectStatus(response, 201, 'create sensor');
}

export async function createCatalogEntry(
  server: TestServer,
  token: string,
  path: '/sensor-types' | '/device-types' | '/load-signatures',
  body: Record<string, unknown>,
): Promise<any> {
  const response = await server.request('POST', path, { token, body });
  return expectStatus(response, 201, `create ${path}`);
}

export async function configurePlantVendor(
  server: TestServer,
  token: string,
  plantUuid: string,
  vendorUuid: string,
  settings: Record<string, unknown> = {},
): Promise<any> {
  const response = await server.request('PUT', `/plants/${plantUuid}/vendors/${vendorUuid}`, {
    token,
    body: { settings },
  });
  return expectStatus(response, 200, 'configure plant vendor');
}

/** A fresh login: its refresh token is unused (the cached `tokenFor` tokens are shared). */
export async function freshLogin(
  server: TestServer,
  email: string,
  password: string,
): Promise<{ accessToken: string; refreshToken: string }> {
  return expectStatus(await server.login(email, password), 200, `login ${email}`);
}

/**
 * An access token of a new Demo Energy account holding exactly `permissions`: for checks of what
 * a narrower role sees.
 */
export async function demoAccountWith(
  server: TestServer,
  name: string,
  permissions: readonly Permission[],
): Promise<string> {
  const { context } = server.server;
  const organization = await context.db
    .selectFrom('organizations')
    .select('organization_uuid')
    .where('name', '=', 'Demo Energy')
    .executeTakeFirstOrThrow();
  const email = `${name}@plantdesk.test`;
  const password = `${name}-pass-1`;
  await createUser(
    context.db,
    {
      organizationUuid: organization.organization_uuid,
      email,
      displayName: name,
      passwordHash: await context.passwords.hash(password),
      permissions,
    },
    context.now().toISOString(),
  );
  return expectStatus(await server.login(email, password), 200, 'login').accessToken as string;
}
