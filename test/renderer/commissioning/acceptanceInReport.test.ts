// @vitest-environment happy-dom
import { describe, expect, test, vi } from 'vitest';
import CommissioningView from '../../../renderer/src/views/CommissioningView.vue';
import { mountWithApp, type RouteAnswers } from '../support/mountWithApp.ts';
import { commissionedRoof, PLANT_UUID, wizardRoutes } from './fixtures.ts';

/**
 * The wizard and the acceptance re-check: a passed verification records the commissioning with
 * the host, a failed one does not, and the report has the section "Acceptance re-check (24 h)".
 */

const roof = commissionedRoof();

function series(points: number) {
  const now = Date.now();
  return {
    plantUuid: PLANT_UUID,
    timezone: 'Europe/Rome',
    unit: 'W',
    from: new Date(now - 15 * 60_000).toISOString(),
    to: new Date(now + 60_000).toISOString(),
    points: Array.from({ length: points }, (_, index) => ({
      timestamp: new Date(now - (index + 1) * 20_000).toISOString(),
      value: 1200,
      coverage: 1,
    })),
  };
}

function mountAt(step: string, extra: RouteAnswers = {}) {
  const commissioned = vi.fn((args: unknown[]) => ({
    ...(args[0] as object),
    commissionedAt: '2026-06-21T10:00:00.000Z',
    dueAt: '2026-06-22T10:00:00.000Z',
    status: 'pending',
    result: null,
    lastError: null,
  }));
  const app = mountWithApp(CommissioningView, {
    props: { plantUuid: PLANT_UUID, step },
    // The verification step's live sparklines are Chart.js canvases, which happy-dom gives no 2D
    // context: a second answer of the live readings (their query polls) would make Chart.js draw
    // on none. What they show is plantSensorsLive.test.ts's; here they are left out.
    stubs: { LiveSparkline: true },
    route: `/commission/${PLANT_UUID}/${step}`,
    routes: {
      ...wizardRoutes(roof.devices, roof.sensors),
      historyProduction: () => series(2),
      historyConsumption: () => series(2),
      ...extra,
    },
    channels: {
      'acceptance.commissioned': commissioned,
      'acceptance.get': (args: unknown[]) =>
        commissioned.mock.calls.length > 0 ? commissioned(args as unknown[]) : null,
    },
  });
  return { app, commissioned };
}

describe('the acceptance re-check in the wizard', () => {
  test('a passed verification records the commissioning; the report shows it pending', async () => {
    const { app: mounting, commissioned } = mountAt('report');
    const app = await mounting;
    await vi.waitFor(() => expect(app.wrapper.find('.commissioning-report').exists()).toBe(true));
    await vi.waitFor(() => expect(commissioned).toHaveBeenCalled());
    expect(commissioned.mock.calls[0]![0]).toEqual([
      { plantUuid: PLANT_UUID, plantName: 'Roof in Turin' },
    ]);
    app.emit('acceptance.changed', { environmentId: 'local', plantUuid: PLANT_UUID });
    await vi.waitFor(() =>
      expect(app.wrapper.find('[data-acceptance-recheck] [data-status="pending"]').exists()).toBe(
        true,
      ),
    );
    const section = app.wrapper.find('.commissioning-report [data-acceptance-recheck]');
    expect(section.find('h4').text()).toBe('Acceptance re-check (24 h)');
  });

  test('a failed verification records nothing', async () => {
    const { app: mounting, commissioned } = mountAt('verification', {
      historyConsumption: () => series(0),
    });
    const app = await mounting;
    await vi.waitFor(() => expect(app.wrapper.text()).toContain('Verification failed'));
    await app.settle();
    expect(commissioned).not.toHaveBeenCalled();
  });
});
