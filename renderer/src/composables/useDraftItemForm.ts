import { computed, ref } from 'vue';
import type { DraftRefusal } from '../../../electron/ipc/contract.ts';
import { refusalOnField } from './draftContent.ts';

/**
 * The form of a draft's sensors or devices: which entry is being edited (none while adding),
 * the problems found before keeping it, and each field's error: a problem found here, else the
 * last send's refusal of that field. `fill` puts an entry (none: a new one) into the form.
 */
export function useDraftItemForm<Item extends { key: string }>(
  section: 'sensors' | 'devices',
  refusals: () => readonly DraftRefusal[],
  fill: (item: Item | undefined) => void,
) {
  const editingKey = ref<string | null>(null);
  const adding = ref(false);
  const problems = ref<Record<string, string>>({});
  const formOpen = computed(() => adding.value || editingKey.value !== null);

  function open(item?: Item): void {
    problems.value = {};
    adding.value = item === undefined;
    editingKey.value = item?.key ?? null;
    fill(item);
  }

  function close(): void {
    adding.value = false;
    editingKey.value = null;
  }

  const errorOf = (field: string) =>
    problems.value[field] ??
    (editingKey.value ? refusalOnField(refusals(), section, editingKey.value, field) : null);

  return { section, editingKey, adding, problems, formOpen, open, close, errorOf };
}

export type DraftItemForm<Item extends { key: string }> = ReturnType<typeof useDraftItemForm<Item>>;

/** The list with `item` in place of the entry of its key, or added at the end. */
export function withItem<Item extends { key: string }>(items: readonly Item[], item: Item): Item[] {
  return items.some((entry) => entry.key === item.key)
    ? items.map((entry) => (entry.key === item.key ? item : entry))
    : [...items, item];
}
