import type { DOMWrapper, VueWrapper } from '@vue/test-utils';
import Select from 'primevue/select';
import { nextTick } from 'vue';

/** Finding form controls the way a person does: by their visible label. */

export function labelFor(wrapper: VueWrapper, text: string): DOMWrapper<HTMLLabelElement> {
  const label = wrapper
    .findAll<HTMLLabelElement>('label')
    .find((candidate) => candidate.text().trim() === text);
  if (!label) throw new Error(`no label “${text}”`);
  return label;
}

/** The input a `<label for>` names. */
export function inputLabelled(wrapper: VueWrapper, text: string): DOMWrapper<HTMLInputElement> {
  const id = labelFor(wrapper, text).attributes('for');
  return wrapper.find<HTMLInputElement>(`[id="${id}"]`);
}

/** A PrimeVue Select labelled `text` (its input-id is the label's `for`). */
export function selectLabelled(wrapper: VueWrapper, text: string) {
  const id = labelFor(wrapper, text).attributes('for');
  const select = wrapper
    .findAllComponents(Select)
    .find((candidate) => candidate.props('inputId') === id);
  if (!select) throw new Error(`no select labelled “${text}”`);
  return select;
}

/** Chooses a value in a Select as a click on its option would. */
export async function choose(wrapper: VueWrapper, label: string, value: unknown): Promise<void> {
  selectLabelled(wrapper, label).vm.$emit('update:modelValue', value);
  await nextTick();
}

/** The text of the field's error (`<small id="…-<field>-error">`), if any. */
export function fieldError(wrapper: VueWrapper, field: string): string | undefined {
  const error = wrapper.find(`[id$="-${field}-error"]`);
  return error.exists() ? error.text() : undefined;
}
