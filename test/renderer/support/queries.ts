import type { DOMWrapper, VueWrapper } from '@vue/test-utils';

/** Finding what a person finds on screen: a control by its visible label, a button by name. */

/** The control a visible label names exactly (labels of required fields may end with " *"). */
export function control(wrapper: VueWrapper, label: string): DOMWrapper<HTMLInputElement> {
  const found = wrapper.findAll('label').find(
    (candidate) =>
      candidate
        .text()
        .replace(/\s*\*$/, '')
        .trim() === label,
  );
  if (!found) throw new Error(`no label “${label}”`);
  return wrapper.find<HTMLInputElement>(`[id="${found.attributes('for')}"]`);
}

/** A button by its accessible name (its aria-label, else its text). */
export function button(wrapper: VueWrapper, name: string): DOMWrapper<HTMLButtonElement> {
  const found = wrapper
    .findAll<HTMLButtonElement>('button')
    .find((candidate) => (candidate.attributes('aria-label') ?? candidate.text()).trim() === name);
  if (!found) throw new Error(`no button ${name}`);
  return found;
}

/** The field errors shown (FormField's error lines), in the order of the form. */
export function fieldErrors(wrapper: VueWrapper): string[] {
  return wrapper
    .findAll('.form-field > .error')
    .map((error) => error.text())
    .filter(Boolean);
}
