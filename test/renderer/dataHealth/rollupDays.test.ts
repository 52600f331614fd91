// @vitest-environment happy-dom
import { afterEach, describe, expect, test } from 'vitest';
import PlantDataHealthView from '../../../renderer/src/views/PlantDataHealthView.vue';
import { mountWithApp } from '../support/mountWithApp.ts';
import { plantHealth, sensorHealth } from '../../support/dataHealthAnswers.ts';
import { PLANT_UUID } from '../plants/fixtures.ts';
import type { PlantDataHealth } from '../../../api/index.ts';

/**
 * Days whose raw readings raw retention dropped: their coverage rests on 15-minute rollups.
 * The heat map hatches them and names them so, the legend explains the hatching only when such
 * a day is shown, and the findings say what was not assessed before the raw readings start.
 */

const ON_ROLLUPS = plantHealth([
  sensorHealth({
    resolution: ['15min', '15min', 'raw'],
    rawFrom: '2026-03-29T14:00:00+02:00',
    gapCount: 0,
    gaps: [],
  }),
]);

let mounted: { unmount(): void } | null = null;
afterEach(() => {
  mounted?.unmount();
  mounted = null;
});

async function mountWith(health: PlantDataHealth) {
  const app = await mountWithApp(PlantDataHealthView, {
    props: { plantUuid: PLANT_UUID },
    route: `/plants/${PLANT_UUID}/data-health`,
    routes: { getDataHealth: health },
    attachTo: document.body,
  });
  mounted = app.wrapper;
  await app.settle();
  return app.wrapper;
}

describe('days counted from 15-minute rollups', () => {
  test('their cells are marked and named as such; raw days as before', async () => {
    const wrapper = await mountWith(ON_ROLLUPS);
    const cells = wrapper.findAll('[role="gridcell"]');
    expect(cells.map((cell) => cell.attributes('data-resolution'))).toEqual([
      '15min',
      '15min',
      'raw',
    ]);
    expect(cells[0]!.classes()).toContain('rollups');
    expect(cells[2]!.classes()).not.toContain('rollups');
    expect(cells.map((cell) => cell.attributes('aria-label'))).toEqual([
      'House consumption, Mar 28, 2026: 100% with data, counted from 15-minute rollups (raw readings no longer kept); counter resets and frozen values not assessed',
      'House consumption, Mar 29, 2026: 91.3% with data, counted from 15-minute rollups (raw readings no longer kept); counter resets and frozen values not assessed',
      'House consumption, Mar 30, 2026: 40% with data',
    ]);
  });

  test('the legend has an entry for them, with a hatched swatch', async () => {
    const wrapper = await mountWith(ON_ROLLUPS);
    const entry = wrapper.find('.coverage-legend [data-legend="rollups"]');
    expect(entry.text()).toBe(
      'Hatched: counted from 15-minute rollups, raw readings no longer kept; counter resets and frozen values not assessed',
    );
    expect(entry.find('.swatch').classes()).toEqual(
      expect.arrayContaining(['coverage-cell', 'rollups']),
    );
    expect(entry.find('.swatch').attributes('aria-hidden')).toBe('true');
  });

  test('the findings say what was not assessed instead of claiming nothing was found', async () => {
    const wrapper = await mountWith(ON_ROLLUPS);
    const findings = wrapper.find('.sensor-findings');
    expect(findings.find('[data-testid="not-assessed"]').text()).toBe(
      'Before Mar 29, 2026, 2:00 PM only 15-minute rollups are kept (raw retention): coverage and gaps there are counted from them; counter resets, frozen values and suspicions are not assessed.',
    );
    expect(findings.text()).toContain(
      'No gaps; since Mar 29, 2026, 2:00 PM, no counter resets, frozen values or suspicions.',
    );
    expect(findings.text()).not.toContain('No gaps, counter resets, frozen values or suspicions.');
  });

  test('without such days (or from a server that does not say): no legend entry, no note', async () => {
    const wrapper = await mountWith(plantHealth([sensorHealth({ gapCount: 0, gaps: [] })]));
    expect(wrapper.findAll('[role="gridcell"].rollups')).toHaveLength(0);
    expect(wrapper.find('.coverage-legend [data-legend="rollups"]').exists()).toBe(false);
    expect(wrapper.find('[data-legend="full"]').exists()).toBe(true);
    expect(wrapper.find('[data-testid="not-assessed"]').exists()).toBe(false);
    expect(wrapper.find('.sensor-findings').text()).toContain(
      'No gaps, counter resets, frozen values or suspicions.',
    );
  });
});
