import type { AlertNotification } from '../../ipc/contract.ts';
import { wordsOf, type HostText, type Wording } from '../hostText.ts';
import type { StoredAlert } from './alertLifecycle.ts';

/**
 * One notification per plant and cycle: its new alerts and those that cleared, together, so
 * that a plant with three problems does not ring three times. Alerts opened while the plant was
 * muted are listed in the app but notify neither when they open nor when they clear. Worded in
 * the language of the moment it is shown: a notification is not read again later.
 */
export function plantNotifications(
  environmentId: string,
  opened: readonly StoredAlert[],
  resolved: readonly StoredAlert[],
  wording: Wording,
): AlertNotification[] {
  const byPlant = new Map<
    string,
    { name: string; opened: StoredAlert[]; resolved: StoredAlert[] }
  >();
  const entry = (alert: StoredAlert) => {
    let found = byPlant.get(alert.plantUuid);
    if (!found) {
      found = { name: alert.plantName, opened: [], resolved: [] };
      byPlant.set(alert.plantUuid, found);
    }
    return found;
  };
  for (const alert of opened) if (!alert.muted) entry(alert).opened.push(alert);
  for (const alert of resolved) if (!alert.muted) entry(alert).resolved.push(alert);
  return [...byPlant].map(([plantUuid, plant]) => {
    const counts: HostText[] = [
      ...count('monitor.notification.opened', plant.opened.length),
      ...count('monitor.notification.cleared', plant.resolved.length),
    ];
    const lines = [
      ...plant.opened.map((alert) => wordsOf(alert.message, wording)),
      ...plant.resolved.map((alert) =>
        wording.t('monitor.notification.clearedLine', {
          message: wordsOf(firstLine(alert), wording),
        }),
      ),
    ];
    return {
      environmentId,
      plantUuid,
      opened: plant.opened.length,
      cleared: plant.resolved.length,
      title: wordsOf(
        {
          key: 'monitor.notification.title',
          params: { plant: plant.name, counts: { list: counts } },
        },
        wording,
      ),
      body: lines.join('\n'),
    };
  });
}

const count = (key: string, n: number): HostText[] => (n > 0 ? [{ key, plural: n }] : []);
/** The opening message, which said what was wrong (the last one may say it differently). */
const firstLine = (alert: StoredAlert) => alert.history[0]?.message ?? alert.message;
