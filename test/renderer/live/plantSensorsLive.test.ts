// @vitest-environment happy-dom
import { describe, expect, test, vi } from 'vitest';
import PlantSensorsView from '../../../renderer/src/views/PlantSensorsView.vue';
import { usePlantStore } from '../../../renderer/src/stores/usePlantStore.ts';
import { PLANT, PLANT_UUID } from '../commissioning/fixtures.ts';
import { pinWizardClock, wizardRoutes } from '../support/commissioningApp.ts';
import { mountWithApp } from '../support/mountWithApp.ts';
import { liveRoof, noonAnswer, NOW } from './fixtures.ts';

/**
 * The plant's sensors page shows each sensor's freshness (the Data column) and its live
 * readings from one reader of sensor-statuses: one read a tick, with the last 15 minutes, every
 * 10 s while the live readings are shown.
 */

const roof = liveRoof();

pinWizardClock(NOW);

describe('the sensors page', () => {
  test('reads sensor-statuses once a tick for the Data column and the live readings', async () => {
    // Polling runs on setInterval (vue-query's refetchInterval).
    vi.useFakeTimers({
      now: NOW,
      toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'],
    });
    const app = await mountWithApp(PlantSensorsView, {
      props: { plantUuid: PLANT_UUID },
      route: `/plants/${PLANT_UUID}/sensors`,
      routes: wizardRoutes(roof, { listSensorStatuses: () => noonAnswer(roof) }),
    });
    // The plant page has read the plant: the live readings are shown.
    usePlantStore().replace(PLANT);
    await vi.advanceTimersByTimeAsync(0);
    await app.settle();
    const live = () => app.wrapper.find('[data-live-readings]');
    await vi.waitFor(() =>
      expect(live().find('tr[data-live-sensor="PV output"]').exists()).toBe(true),
    );
    expect(live().find('tr[data-live-sensor="PV output"] [data-live-value]').text()).toBe(
      '3.00 kW',
    );
    expect(app.wrapper.find('[role="group"][aria-label="Data of PV output"]').exists()).toBe(true);
    const recentReads = () =>
      app.callsTo('listSensorStatuses').filter((call) => call.input?.query?.recent === true);
    expect(recentReads().length).toBeGreaterThan(0);

    const asked = app.callsTo('listSensorStatuses').length;
    // 30 s: the Data column's interval, three of the live readings'.
    for (let tick = 0; tick < 3; tick++) {
      await vi.advanceTimersByTimeAsync(10_000);
      await app.settle();
    }
    // One read a tick for both, with the recent readings.
    const later = app.callsTo('listSensorStatuses').slice(asked);
    expect(later.map((call) => call.input!.query)).toEqual([
      { recent: true },
      { recent: true },
      { recent: true },
    ]);
    expect(app.callsTo('historyProduction')).toHaveLength(0);
  });
});
