import { focusManager } from '@tanstack/vue-query';
import { getCurrentScope, onScopeDispose, readonly, ref, type Ref } from 'vue';

/**
 * The window is hidden, as vue-query sees it (`visibilitychange`): while it is, polling queries
 * wait; back to visible, stale queries are asked again. For a screen that says it is paused.
 */
export function useWindowHidden(): Readonly<Ref<boolean>> {
  const hidden = ref(!focusManager.isFocused());
  const stop = focusManager.subscribe((focused) => {
    hidden.value = !focused;
  });
  if (getCurrentScope()) onScopeDispose(stop);
  return readonly(hidden);
}
