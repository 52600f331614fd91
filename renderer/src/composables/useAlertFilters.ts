import { computed, ref, type Ref } from 'vue';
import type { Alert, AlertRule, AlertSeverity } from '../../../electron/ipc/contract.ts';

export type AlertStatusFilter = 'open' | 'resolved' | 'all';

/** The alerts screen's filters: status, severity, rule and plant (name or uuid). */
export function useAlertFilters(alerts: Ref<readonly Alert[]>, initialPlant?: string) {
  const status = ref<AlertStatusFilter>('open');
  const severities = ref<AlertSeverity[]>([]);
  const rules = ref<AlertRule[]>([]);
  const plant = ref(initialPlant ?? '');

  const filtered = computed(() => {
    const term = plant.value.trim().toLowerCase();
    return alerts.value.filter(
      (alert) =>
        (status.value === 'all' || alert.status === status.value) &&
        (severities.value.length === 0 || severities.value.includes(alert.severity)) &&
        (rules.value.length === 0 || rules.value.includes(alert.rule)) &&
        (term === '' || alert.plantUuid === term || alert.plantName.toLowerCase().includes(term)),
    );
  });

  return { status, severities, rules, plant, filtered };
}
