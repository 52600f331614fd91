import { defineStore } from 'pinia';
import { computed } from 'vue';
import { useQuery, useQueryClient } from '@tanstack/vue-query';
import { useBridge } from '../bridge.ts';
import type {
  Alert,
  AlertsState,
  MonitorSettings,
  MuteInput,
} from '../../../electron/ipc/contract.ts';
import { errorMessage } from '../composables/useFormErrors.ts';
import { translate } from '../i18n.ts';
import { hostQueryKey } from '../queryClient.ts';

/**
 * The active environment's alerts as the host's monitor keeps them: open and past alerts,
 * maintenance windows, the monitor's settings and its last cycle. The state is a query of the
 * shared cache (keyed by its channel); the host announces every change (`alerts.changed`) and
 * a change of session, which invalidate it, and an action's answer replaces it.
 */
export const useAlertsStore = defineStore('alerts', () => {
  const bridge = useBridge();
  const client = useQueryClient();
  const queryKey = hostQueryKey('alerts.state');
  const query = useQuery({ queryKey, queryFn: () => bridge.invoke('alerts.state') }, client);

  const invalidate = () => void client.invalidateQueries({ queryKey });
  bridge.on('alerts.changed', invalidate);
  bridge.on('session.changed', invalidate);

  const state = computed<AlertsState | null>(() => query.data.value ?? null);
  const error = computed(() =>
    query.error.value ? errorMessage(query.error.value, translate('alerts.readFailed')) : null,
  );
  const loading = computed(() => query.isFetching.value);

  const alerts = computed(() => state.value?.alerts ?? []);
  const open = computed(() => alerts.value.filter((alert) => alert.status === 'open'));
  /** Open alerts by plant, most severe first (the host orders them so). */
  const openByPlant = computed(() => {
    const byPlant = new Map<string, Alert[]>();
    for (const alert of open.value) {
      const list = byPlant.get(alert.plantUuid) ?? [];
      list.push(alert);
      byPlant.set(alert.plantUuid, list);
    }
    return byPlant;
  });

  /** The state an action answers is the newest: a read still running cannot overwrite it. */
  async function apply(change: Promise<AlertsState>): Promise<void> {
    const next = await change;
    await client.cancelQueries({ queryKey });
    client.setQueryData(queryKey, next);
  }

  return {
    state,
    alerts,
    open,
    openByPlant,
    error,
    loading,
    acknowledge: (alertId: string, note?: string) =>
      apply(bridge.invoke('alerts.acknowledge', { alertId, ...(note && { note }) })),
    mute: (input: MuteInput) => apply(bridge.invoke('alerts.mute', input)),
    unmute: (plantUuid: string, rule: MuteInput['rule']) =>
      apply(bridge.invoke('alerts.unmute', { plantUuid, rule })),
    updateSettings: (settings: MonitorSettings) =>
      apply(bridge.invoke('alerts.updateSettings', settings)),
    checkNow: () => apply(bridge.invoke('alerts.checkNow')),
  };
});
