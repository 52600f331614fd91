import type { Alert, AlertNotification } from '../../ipc/contract.ts';

/**
 * One notification per plant and cycle: its new alerts and those that cleared, together, so
 * that a plant with three problems does not ring three times. Alerts opened while the plant was
 * muted are listed in the app but notify neither when they open nor when they clear.
 */
export function plantNotifications(
  environmentId: string,
  opened: readonly Alert[],
  resolved: readonly Alert[],
): AlertNotification[] {
  const byPlant = new Map<string, { name: string; opened: Alert[]; resolved: Alert[] }>();
  const entry = (alert: Alert) => {
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
    const parts = [
      plant.opened.length > 0 && `${plant.opened.length} new alert${plural(plant.opened.length)}`,
      plant.resolved.length > 0 && `${plant.resolved.length} cleared`,
    ].filter(Boolean);
    const lines = [
      ...plant.opened.map((alert) => alert.message),
      ...plant.resolved.map((alert) => `Cleared: ${firstLine(alert)}`),
    ];
    return {
      environmentId,
      plantUuid,
      title: `${plant.name}: ${parts.join(', ')}`,
      body: lines.join('\n'),
    };
  });
}

const plural = (count: number) => (count === 1 ? '' : 's');
/** The opening message, which said what was wrong (the last one may say it differently). */
const firstLine = (alert: Alert) => alert.history[0]?.message ?? alert.message;
