// @vitest-environment happy-dom
import { describe, expect, test, vi } from 'vitest';
import type { VueWrapper } from '@vue/test-utils';
import LoadProfileEditor from '../../../renderer/src/components/catalogs/LoadProfileEditor.vue';
import {
  flatProfile,
  normalize,
  roundProfile,
} from '../../../renderer/src/composables/loadProfile.ts';
import { mountWithApp } from '../support/mountWithApp.ts';

// The chart draws on a canvas, which happy-dom has not: a stand-in shows what it was given.
vi.mock('vue-chartjs', async () => {
  const { defineComponent, h } = await import('vue');
  return {
    Bar: defineComponent({
      props: {
        data: { type: Object, required: true },
        options: { type: Object, default: () => ({}) },
        ariaLabel: { type: String, default: '' },
      },
      setup: (props) => () =>
        h('div', {
          class: 'chart-stand-in',
          role: 'img',
          'aria-label': props.ariaLabel,
          'data-values': JSON.stringify(
            (props.data as { datasets: { data: number[] }[] }).datasets[0]!.data,
          ),
        }),
    }),
  };
});

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

async function mountEditor(modelValue: number[]) {
  const app = await mountWithApp(LoadProfileEditor, { props: { modelValue } });
  // Act like v-model: every emitted profile becomes the new value.
  const wrapper = app.wrapper as VueWrapper;
  await wrapper.setProps({
    'onUpdate:modelValue': (next: number[]) => wrapper.setProps({ modelValue: next }),
  });
  return wrapper;
}

function hourInput(wrapper: VueWrapper, label: string) {
  const found = wrapper.findAll('label').find((candidate) => candidate.text() === label);
  if (!found) throw new Error(`no label ${label}`);
  return wrapper.find<HTMLInputElement>(`[id="${found.attributes('for')}"]`);
}

function emitted(wrapper: VueWrapper): number[][] {
  return (wrapper.emitted('update:modelValue') ?? []).map((args) => args[0] as number[]);
}

async function type(wrapper: VueWrapper, label: string, text: string): Promise<void> {
  const input = hourInput(wrapper, label);
  input.element.value = text;
  await input.trigger('input');
  await input.trigger('blur');
}

describe('LoadProfileEditor', () => {
  test('one labelled input per hour, in percent, with the total and a chart of the day', async () => {
    const wrapper = await mountEditor(roundProfile(flatProfile(), 4));
    const labels = wrapper.findAll('.hour label').map((label) => label.text());
    expect(labels).toHaveLength(24);
    expect(labels[0]).toBe('00:00');
    expect(labels[23]).toBe('23:00');
    expect(hourInput(wrapper, '00:00').element.value).toBe('4.17');
    expect(hourInput(wrapper, '23:00').element.value).toBe('4.16');
    expect(wrapper.find('output').text()).toBe('Total: 100.00 %');

    const chart = wrapper.find('.chart-stand-in');
    const values = JSON.parse(chart.attributes('data-values')!) as number[];
    expect(values).toHaveLength(24);
    expect(sum(values)).toBeCloseTo(100, 9);
    expect(chart.attributes('aria-label')).toContain('peak at 00:00');
    expect(wrapper.find('legend').text()).toBe('Hourly profile');
  });

  test('typing an hour keeps it and rescales the other hours so the day stays 100 %', async () => {
    const start = normalize([2, 1, 1, ...new Array(21).fill(0)]);
    const wrapper = await mountEditor(start);
    expect(hourInput(wrapper, '00:00').element.value).toBe('50');

    await type(wrapper, '00:00', '20');
    const [profile] = emitted(wrapper);
    expect(profile![0]).toBe(0.2);
    expect(profile![1]).toBeCloseTo(0.4, 12);
    expect(profile![2]).toBeCloseTo(0.4, 12);
    expect(Math.abs(sum(profile!) - 1)).toBeLessThan(1e-9);
    expect(hourInput(wrapper, '01:00').element.value).toBe('40');
    expect(wrapper.find('output').text()).toBe('Total: 100.00 %');
    const chart = JSON.parse(wrapper.find('.chart-stand-in').attributes('data-values')!);
    expect(chart[0]).toBeCloseTo(20, 9);
  });

  test('an hour set to 100 % leaves nothing to the others; the flat button spreads the day', async () => {
    const wrapper = await mountEditor(roundProfile(flatProfile(), 4));
    await type(wrapper, '12:00', '100');
    const [all] = emitted(wrapper);
    expect(all!.filter((share) => share > 0)).toEqual([1]);
    expect(all![12]).toBe(1);

    await wrapper
      .findAll('button')
      .find((b) => b.text() === 'Flat profile')!
      .trigger('click');
    const flat = emitted(wrapper).at(-1)!;
    expect(sum(flat.map((share) => Math.round(share * 10_000)))).toBe(10_000);
    expect(Math.max(...flat) - Math.min(...flat)).toBeCloseTo(0.0001, 12);
  });

  test('leaving an hour unchanged does not reshape the day', async () => {
    const wrapper = await mountEditor(normalize([3, 1, 7, 5, ...new Array(20).fill(1)]));
    const input = hourInput(wrapper, '02:00');
    await input.trigger('focus');
    await input.trigger('blur');
    expect(emitted(wrapper)).toHaveLength(0);
  });

  test('shows a profile error', async () => {
    const app = await mountWithApp(LoadProfileEditor, {
      props: { modelValue: flatProfile(), error: 'The hourly profile must add up to 100 %' },
    });
    expect(app.wrapper.find('[role="alert"]').text()).toBe(
      'The hourly profile must add up to 100 %',
    );
  });
});
