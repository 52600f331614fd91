import { ref } from 'vue';
import type { PlantDeskBridge, ReportScheduleState } from '../../../electron/ipc/contract.ts';
import { useBridge } from '../bridge.ts';
import { translate } from '../i18n.ts';
import { errorMessage } from './useFormErrors.ts';

/**
 * The monthly report schedule as the host keeps it: on or off, its day, its folder (chosen in
 * the host's folder dialog only) and what it last wrote. In browser mode the host says it is not
 * available, and the page says why.
 */
export function useReportSchedule(bridge: PlantDeskBridge = useBridge()) {
  const state = ref<ReportScheduleState | null>(null);
  const enabled = ref(false);
  const dayOfMonth = ref(1);
  const busy = ref(false);
  const error = ref<string | null>(null);
  const outcome = ref<string | null>(null);

  function show(next: ReportScheduleState): void {
    state.value = next;
    enabled.value = next.settings.enabled;
    dayOfMonth.value = next.settings.dayOfMonth;
  }

  async function act(run: () => Promise<ReportScheduleState>, done?: string): Promise<void> {
    busy.value = true;
    error.value = null;
    outcome.value = null;
    try {
      show(await run());
      if (done) outcome.value = done;
    } catch (caught) {
      error.value = errorMessage(caught);
    } finally {
      busy.value = false;
    }
  }

  return {
    state,
    enabled,
    dayOfMonth,
    busy,
    error,
    outcome,
    load: () => act(() => bridge.invoke('reports.schedule')),
    chooseFolder: () => act(() => bridge.invoke('reports.chooseFolder')),
    save: () =>
      act(
        () =>
          bridge.invoke('reports.updateSchedule', {
            enabled: enabled.value,
            dayOfMonth: dayOfMonth.value,
          }),
        translate('reports.schedule.saved'),
      ),
  };
}
