import { ref, shallowRef } from 'vue';
import { errorMessage } from './useFormErrors.ts';

/**
 * A list read on demand (a plant's devices or sensors for a select, a link dialog or a form):
 * `load()` reads it again and answers it; after a failure `items` is undefined and `error` says
 * why (the server's message, else `failureText`; a function is called at the failure, so that it
 * says it in the language chosen then). Never throws.
 */
export function useFetchedList<Item>(
  read: () => Promise<Item[]>,
  failureText: string | (() => string),
) {
  const items = shallowRef<Item[] | undefined>(undefined);
  const error = ref<string | null>(null);

  async function load(): Promise<Item[] | undefined> {
    error.value = null;
    try {
      items.value = await read();
    } catch (caught) {
      items.value = undefined;
      error.value = errorMessage(
        caught,
        typeof failureText === 'function' ? failureText() : failureText,
      );
    }
    return items.value;
  }

  return { items, error, load };
}
