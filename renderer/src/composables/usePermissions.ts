import { computed } from 'vue';
import type { Permission } from '../../../api/permissions.ts';
import { translate } from '../i18n.ts';
import { useSessionStore } from '../stores/useSessionStore.ts';

/** What a control lacking `permission` says: "Requires the permission PLANTS DELETE". */
export function missingPermissionText(permission: Permission): string {
  return translate('common.requiresPermission', { permission });
}

/**
 * The signed-in user's permissions, as `/auth/me` lists them. Screens disable what the user may
 * not do; the server still decides, and its 403 is shown when it disagrees.
 */
export function usePermissions() {
  const session = useSessionStore();
  const granted = computed(() => new Set(session.user?.permissions ?? []));

  function can(permission: Permission): boolean {
    return granted.value.has(permission);
  }

  /** Null when granted, else the sentence a tooltip shows. */
  function missing(permission: Permission): string | null {
    return can(permission) ? null : missingPermissionText(permission);
  }

  return { permissions: granted, can, missing };
}
