import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import { useBridge } from '../bridge.ts';
import type {
  Alert,
  AlertsState,
  MonitorSettings,
  MuteInput,
} from '../../../electron/ipc/contract.ts';
import { errorMessage } from '../composables/useFormErrors.ts';
import { translate } from '../i18n.ts';

/**
 * The active environment's alerts as the host's monitor keeps them: open and past alerts,
 * maintenance windows, the monitor's settings and its last cycle. The host announces every
 * change (`alerts.changed`); the store reads the state again then.
 */
export const useAlertsStore = defineStore('alerts', () => {
  const bridge = useBridge();
  const state = ref<AlertsState | null>(null);
  const error = ref<string | null>(null);
  const loading = ref(false);
  let latest = 0;

  async function load(): Promise<void> {
    const request = ++latest;
    loading.value = true;
    try {
      const next = await bridge.invoke('alerts.state');
      if (request !== latest) return;
      state.value = next;
      error.value = null;
    } catch (caught) {
      if (request === latest) error.value = errorMessage(caught, translate('alerts.readFailed'));
    } finally {
      if (request === latest) loading.value = false;
    }
  }

  bridge.on('alerts.changed', () => void load());
  bridge.on('session.changed', () => void load());

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

  async function apply(change: Promise<AlertsState>): Promise<void> {
    latest++;
    state.value = await change;
  }

  return {
    state,
    alerts,
    open,
    openByPlant,
    error,
    loading,
    load,
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
