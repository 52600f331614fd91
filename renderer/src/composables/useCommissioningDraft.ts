import { ref, shallowRef } from 'vue';
import type { Draft, DraftContent, DraftSendResult } from '../../../electron/ipc/contract.ts';
import { draftCalls } from '../bridge.ts';
import { translate } from '../i18n.ts';
import { errorMessage } from './useFormErrors.ts';

/**
 * One commissioning draft while the wizard edits it: every change is saved to the host at once
 * (saves run one after another, the newest content last, so a slow save never overwrites a
 * later one), and the draft can be sent from here.
 */
export function useCommissioningDraft() {
  const calls = draftCalls();
  const draft = shallowRef<Draft | null>(null);
  const loading = ref(false);
  const saving = ref(false);
  const sending = ref(false);
  const error = ref<string | null>(null);
  let queue: Promise<unknown> = Promise.resolve();

  async function load(draftId: string): Promise<void> {
    loading.value = true;
    error.value = null;
    try {
      draft.value = await calls.get(draftId);
    } catch (caught) {
      draft.value = null;
      error.value = errorMessage(caught, translate('drafts.failures.read'));
    } finally {
      loading.value = false;
    }
  }

  /** Saves `content` (a new draft when none is loaded); rejects with the host's error. */
  function save(content: DraftContent): Promise<Draft> {
    const run = queue.then(async () => {
      saving.value = true;
      try {
        const saved = await calls.save(
          draft.value ? { draftId: draft.value.draftId, content } : { content },
        );
        draft.value = saved;
        error.value = null;
        return saved;
      } finally {
        saving.value = false;
      }
    });
    queue = run.catch(() => {});
    return run;
  }

  /** Applies a change to the draft's content and saves it. */
  function change(update: (content: DraftContent) => DraftContent): Promise<Draft> {
    if (!draft.value) return Promise.reject(new Error(translate('drafts.failures.noneOpen')));
    return save(update(structuredClone(draft.value.content)));
  }

  async function send(
    secrets: Record<string, Record<string, string>>,
  ): Promise<DraftSendResult | { outcome: 'failed'; message: string }> {
    if (!draft.value) return { outcome: 'failed', message: translate('drafts.failures.noneOpen') };
    sending.value = true;
    try {
      await queue;
      const result = await calls.send(
        draft.value.draftId,
        Object.keys(secrets).length > 0 ? { secrets } : undefined,
      );
      draft.value = result.draft;
      return result;
    } catch (caught) {
      return {
        outcome: 'failed',
        message: errorMessage(caught, translate('drafts.failures.send')),
      };
    } finally {
      sending.value = false;
    }
  }

  return { draft, loading, saving, sending, error, load, save, change, send };
}
