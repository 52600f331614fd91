// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import { mount } from '@vue/test-utils';
import PrimeVue from 'primevue/config';
import NumberInput from '../../../renderer/src/components/NumberInput.vue';
import { i18n } from '../../../renderer/src/i18n.ts';

/** Number fields write and read numbers as the chosen language does, not as the browser does. */

const field = (modelValue: number, onUpdate = (_value: number | null) => {}) =>
  mount(NumberInput, {
    props: { modelValue, maxFractionDigits: 2, inputId: 'power', 'onUpdate:modelValue': onUpdate },
    global: { plugins: [[PrimeVue, { theme: 'none' }]] },
  });

describe('NumberInput', () => {
  test.each([
    ['en', '1,234.5'],
    ['de', '1.234,5'],
    ['it', '1.234,5'],
  ] as const)('in %s shows %s, its attributes passed on', (locale, shown) => {
    i18n.global.locale.value = locale;
    const input = field(1234.5).get('input');
    expect(input.element.value).toBe(shown);
    expect(input.attributes('id')).toBe('power');
  });

  test('a change of language rewrites the number', async () => {
    const wrapper = field(0.5);
    expect(wrapper.get('input').element.value).toBe('0.5');
    i18n.global.locale.value = 'de';
    await wrapper.vm.$nextTick();
    expect(wrapper.get('input').element.value).toBe('0,5');
  });

  test('typing with a decimal comma in German gives the number to v-model', async () => {
    i18n.global.locale.value = 'de';
    const updates: (number | null)[] = [];
    const input = field(0, (value) => updates.push(value)).get('input');
    input.element.value = '2,75';
    await input.trigger('blur');
    expect(updates.at(-1)).toBe(2.75);
  });
});
