import { useToast } from 'primevue/usetoast';
import { useRouter } from 'vue-router';
import type { AlertNotification } from '../../../electron/ipc/contract.ts';
import { useBridge } from '../bridge.ts';

/**
 * Browser mode: the host cannot raise an OS notification, so it hands new and cleared alerts to
 * the page, which shows the browser's own notification when the user allowed them, else a
 * message in the page. (In Electron the main process notifies and never sends this event.)
 */
export function useAlertNotifications(): void {
  const bridge = useBridge();
  const toast = useToast();
  const router = useRouter();

  function show(notification: AlertNotification) {
    if (typeof Notification !== 'undefined' && Notification.permission === 'granted') {
      const shown = new Notification(notification.title, {
        body: notification.body,
        tag: `${notification.environmentId}:${notification.plantUuid}`,
      });
      shown.onclick = () => {
        window.focus();
        void router.push({ name: 'alerts', query: { plant: notification.plantUuid } });
      };
      return;
    }
    toast.add({
      severity: notification.opened > 0 ? 'warn' : 'info',
      summary: notification.title,
      detail: notification.body,
      life: 10_000,
    });
  }

  bridge.on('alerts.notification', show);
}
