// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { defineComponent, effectScope, h } from 'vue';
import type { PlantSensorStatuses } from '../../../api/schemas/fleet.ts';
import { useSensorStatuses } from '../../../renderer/src/composables/useSensorStatuses.ts';
import {
  apiError,
  LOCAL_ENVIRONMENT,
  mountWithApp,
  type RouteAnswers,
} from '../support/mountWithApp.ts';
import { PLANT } from './fixtures.ts';
import { sensorStatus, statusesOf } from './statusFixtures.ts';

/**
 * useSensorStatuses over a fake host: the statuses loaded and read again at the interval, and a
 * server without the extension (404 for the route) remembered per environment, so that no screen
 * asks it again nor shows an error.
 */

const NOW = Date.parse('2026-06-21T10:00:00Z');
const OTHER_PLANT = '22222222-2222-4222-8222-222222222222';
const NO_ROUTE = apiError(404, `No route for GET /plants/${PLANT}/sensor-statuses`);

beforeEach(() => {
  vi.useFakeTimers({
    now: NOW,
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
  });
});
afterEach(() => {
  vi.useRealTimers();
});

type Freshness = ReturnType<typeof useSensorStatuses>;

/** Mounts a component that uses the composable for PLANT; `more()` makes another user of it. */
async function mountProbe(listSensorStatuses: RouteAnswers['listSensorStatuses']) {
  let first: Freshness | undefined;
  const Probe = defineComponent({
    setup() {
      first = useSensorStatuses(() => PLANT);
      return () => h('div');
    },
  });
  const app = await mountWithApp(Probe, { routes: { listSensorStatuses } });
  await app.settle();
  const scope = effectScope();
  return {
    app,
    freshness: first!,
    /** Another screen using freshness later in the same session. */
    async more(plantUuid = PLANT) {
      // In the mounted app's context: its QueryClient, as a screen mounted later would have.
      const another = app.wrapper.vm.$.appContext.app.runWithContext(() =>
        scope.run(() => useSensorStatuses(() => plantUuid))!,
      );
      await app.settle();
      return another;
    },
  };
}

describe('useSensorStatuses', () => {
  test('loads the plant’s statuses and reads them again at the interval', async () => {
    const answer = statusesOf([sensorStatus(1), sensorStatus(2, { state: 'LATE' })]);
    const { app, freshness } = await mountProbe(answer);
    expect(app.callsTo('listSensorStatuses')[0]!.input).toEqual({ params: { plantUuid: PLANT } });
    expect(freshness.available.value).toBe(true);
    expect(freshness.zone.value).toBe('Europe/Rome');
    expect(freshness.loadedAt.value).toBe(NOW);
    expect(freshness.byUuid.value.get(sensorStatus(2).sensorUuid)?.state).toBe('LATE');

    await vi.advanceTimersByTimeAsync(30_000);
    await app.settle();
    expect(app.callsTo('listSensorStatuses')).toHaveLength(2);
  });

  test('a failure other than 404 is an error; the statuses shown before stay', async () => {
    const answer: PlantSensorStatuses = statusesOf([sensorStatus(1)]);
    const { app, freshness } = await mountProbe(answer);
    app.routes.listSensorStatuses = apiError(500, 'Database unavailable');
    await freshness.refresh();
    await app.settle();
    expect(freshness.error.value).toBe('Database unavailable');
    expect(freshness.statuses.value?.sensors).toHaveLength(1);
    expect(freshness.available.value).toBe(true);
    // The next tick tries again.
    app.routes.listSensorStatuses = answer;
    await vi.advanceTimersByTimeAsync(30_000);
    await app.settle();
    expect(freshness.error.value).toBeNull();
  });

  test('without the extension: not available, no error, never asked again in this environment', async () => {
    const { app, freshness, more } = await mountProbe(NO_ROUTE);
    expect(freshness.available.value).toBe(false);
    expect(freshness.error.value).toBeNull();
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    await freshness.refresh();
    const another = await more(OTHER_PLANT);
    expect(another.available.value).toBe(false);
    expect(app.callsTo('listSensorStatuses')).toHaveLength(1);

    // Another environment's server may have it: asked again there.
    app.routes.listSensorStatuses = statusesOf([sensorStatus(1)]);
    const staging = {
      ...LOCAL_ENVIRONMENT,
      id: 'staging',
      kind: 'sandbox' as const,
      source: 'user' as const,
    };
    app.emit('environments.changed', {
      environments: [LOCAL_ENVIRONMENT, staging],
      activeId: 'staging',
    });
    const there = await more();
    expect(there.available.value).toBe(true);
    // Every plant shown asks there, once: the first user and the new one share PLANT's read.
    expect(app.callsTo('listSensorStatuses')).toHaveLength(3);
    const asked = app.callsTo('listSensorStatuses').map((call) => call.input!.params!.plantUuid);
    expect(asked.slice(1).sort()).toEqual([PLANT, OTHER_PLANT].sort());
    expect(freshness.available.value).toBe(true);
  });

  test('a 404 naming the plant is that plant gone, not the route: other plants are asked', async () => {
    const { app, freshness, more } = await mountProbe(apiError(404, `Plant ${PLANT} not found`));
    expect(freshness.available.value).toBe(false);
    expect(freshness.error.value).toBeNull();
    app.routes.listSensorStatuses = statusesOf([sensorStatus(1)]);
    const other = await more(OTHER_PLANT);
    expect(other.available.value).toBe(true);
  });
});
