import { computed, ref, toValue, watch, type MaybeRefOrGetter } from 'vue';
import { appDate } from '../clock.ts';
import { useSessionStore } from '../stores/useSessionStore.ts';
import type { CommissioningStep } from './useCommissioning.ts';

/**
 * Who the commissioning report names as installer (the signed-in user) and when it was made:
 * the moment the report step was last opened, so the date shown is the date printed.
 */
export function useReportStamp(step: MaybeRefOrGetter<CommissioningStep>) {
  const session = useSessionStore();
  const reportAt = ref(appDate());
  watch(
    () => toValue(step),
    (current) => {
      if (current === 'report') reportAt.value = appDate();
    },
  );
  const installer = computed(() =>
    session.user ? { name: session.user.displayName, email: session.user.email } : null,
  );
  return { reportAt, installer };
}
