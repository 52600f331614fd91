import { ALL_PERMISSIONS } from '../../api/index.ts';
import type { ServerContext } from '../context.ts';
import { createOrganization, createUser, findUserByEmail } from '../features/auth/userStore.ts';

export interface AdminAccount {
  email: string;
  password: string;
}

/** Creates an administrator with every permission unless the address already has an account. */
export async function ensureAdmin(context: ServerContext, admin: AdminAccount): Promise<void> {
  const { db } = context;
  if (await findUserByEmail(db, admin.email)) return;
  const at = context.now().toISOString();
  const passwordHash = await context.passwords.hash(admin.password);
  await db.transaction().execute(async (trx) => {
    const organizationUuid = await createOrganization(trx, 'PlantDesk', at);
    await createUser(
      trx,
      {
        organizationUuid,
        email: admin.email,
        displayName: 'Administrator',
        passwordHash,
        permissions: ALL_PERMISSIONS,
      },
      at,
    );
  });
}
