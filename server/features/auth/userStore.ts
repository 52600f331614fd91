import { randomUUID } from 'node:crypto';
import { isPermission, type Permission } from '../../../api/index.ts';
import type { Db } from '../../db/database.ts';
import type { UserRow } from '../../db/tables.ts';

export interface NewUser {
  organizationUuid: string;
  email: string;
  displayName: string;
  passwordHash: string;
  permissions: readonly Permission[];
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('email', '=', normalizeEmail(email))
    .executeTakeFirst();
}

export async function findUser(db: Db, userUuid: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('user_uuid', '=', userUuid).executeTakeFirst();
}

export function permissionsOf(user: UserRow): Permission[] {
  const stored = JSON.parse(user.permissions) as unknown;
  return Array.isArray(stored)
    ? stored.filter((name): name is Permission => typeof name === 'string' && isPermission(name))
    : [];
}

export async function createOrganization(db: Db, name: string, now: string): Promise<string> {
  const organizationUuid = randomUUID();
  await db
    .insertInto('organizations')
    .values({ organization_uuid: organizationUuid, name, created_at: now })
    .execute();
  return organizationUuid;
}

export async function createUser(db: Db, user: NewUser, now: string): Promise<string> {
  const userUuid = randomUUID();
  await db
    .insertInto('users')
    .values({
      user_uuid: userUuid,
      organization_uuid: user.organizationUuid,
      email: normalizeEmail(user.email),
      display_name: user.displayName,
      password_hash: user.passwordHash,
      permissions: JSON.stringify(user.permissions),
      created_at: now,
    })
    .execute();
  return userUuid;
}
