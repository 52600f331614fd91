// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import { mount } from '@vue/test-utils';
import WiringCheckList from '../../../renderer/src/components/commissioning/WiringCheckList.vue';
import DirectionResultList from '../../../renderer/src/components/commissioning/DirectionResultList.vue';
import { i18n } from '../../../renderer/src/i18n.ts';
import { directionTest, gridSign } from '../../../server/domain/wiring/index.ts';
import { craftedPlant, JUNE_NOON, withReadings } from '../../unit/wiring/craftedPlant.ts';

/**
 * The wiring checks' findings, actions and figure names reach the screen in the chosen language
 * with its numbers, and follow a change of language without running the checks again.
 */

const reversedGrid = () =>
  withReadings(
    craftedPlant(JUNE_NOON, { production: 5000, consumption: 800, storage: -1500 }),
    'Grid meter',
    (value) => -value,
  );

describe('wiring checks on screen', () => {
  test('German, then English at once', async () => {
    i18n.global.locale.value = 'de';
    const checks = gridSign(reversedGrid(), new Set());
    const wrapper = mount(WiringCheckList, { props: { checks } });
    const item = () => wrapper.get('[data-wiring-check="gridSign"]');
    expect(item().text()).toContain('„Grid meter“ misst 2,7 kW Bezug');
    expect(item().text()).toContain(
      'Was zu tun ist: Schalten Sie die Einstellung „Vorzeichen invertiert“',
    );
    expect(item().findAll('dt')[0]!.text()).toBe('Netzzähler, Mittelwert (Bezug +)');
    expect(item().findAll('dd')[0]!.text()).toBe('2.700 W');

    i18n.global.locale.value = 'en';
    await wrapper.vm.$nextTick();
    expect(item().text()).toContain('“Grid meter” reads 2.7 kW import');
    expect(item().findAll('dt')[0]!.text()).toBe('grid meter, mean (import +)');
  });

  test('the direction test in Italian', () => {
    i18n.global.locale.value = 'it';
    const results = directionTest({
      change: { kind: 'loadSwitchedOn', powerW: 2000 },
      meters: [
        {
          sensorUuid: 'bbbbbbbb-0000-4000-8000-000000000001',
          name: 'Contatore di rete',
          flow: 'GRID',
          unit: 'W',
          before: [[0, 400]],
          after: [[120_000, -1600]],
        },
      ],
    });
    const wrapper = mount(DirectionResultList, { props: { results } });
    expect(wrapper.text()).toContain(
      "«Contatore di rete» è variato di -2 kW all'accensione del carico, dove era atteso 2 kW: è montato al contrario.",
    );
    expect(wrapper.text()).toContain('variazione misurata');
  });
});
