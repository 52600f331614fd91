import { onScopeDispose, ref, shallowRef, toValue, watch, type MaybeRefOrGetter } from 'vue';
import type {
  CommissioningNotes,
  NotePhotoInput,
  NoteStep,
  NotesSubject,
} from '../../../electron/ipc/contract.ts';
import { notesCalls } from '../bridge.ts';
import { translate } from '../i18n.ts';
import { errorMessage } from './useFormErrors.ts';

/**
 * The installer's notes and photos of one commissioning (a plant, or a draft), per wizard step,
 * as the host keeps them. Text is saved a moment after typing stops (each save carries one
 * step's text, never the photos); photos are added and removed one at a time.
 *
 *   const notes = useCommissioningNotes(() => ({ plantUuid }));
 *   notes.setText('sensors', 'CT on L1'); await notes.addPhoto('sensors', { dataUrl });
 */

/** How long after the last keystroke the text is saved. */
export const NOTE_SAVE_DELAY_MS = 600;

const subjectKey = (subject: NotesSubject | null | undefined) =>
  subject
    ? 'plantUuid' in subject
      ? `plant:${subject.plantUuid}`
      : `draft:${subject.draftId}`
    : '';

type Failure = 'save' | 'keep' | 'remove' | 'read';

/**
 * The subject as a plain object: a Ref or reactive object given for it is a Proxy, which
 * Electron's bridge cannot copy (structured clone), so every call would fail there.
 */
function plainSubject(subject: NotesSubject | null | undefined): NotesSubject | null {
  if (!subject) return null;
  return 'plantUuid' in subject ? { plantUuid: subject.plantUuid } : { draftId: subject.draftId };
}

export function useCommissioningNotes(subject: MaybeRefOrGetter<NotesSubject | null | undefined>) {
  const calls = notesCalls();
  const currentSubject = () => plainSubject(toValue(subject));
  const notes = shallowRef<CommissioningNotes | null>(null);
  const error = ref<string | null>(null);
  /** The step whose photo is being added or removed. */
  const busy = ref<NoteStep | null>(null);
  /** Text typed and not saved yet, per step. */
  const pending = new Map<
    NoteStep,
    { subject: NotesSubject; text: string; timer: ReturnType<typeof setTimeout> }
  >();

  /** The host's answer with the text typed since (not saved yet), which it must not undo. */
  function withTyped(target: NotesSubject, answer: CommissioningNotes): CommissioningNotes {
    const steps = { ...answer.steps };
    for (const [step, entry] of pending) {
      if (subjectKey(entry.subject) !== subjectKey(target)) continue;
      steps[step] = { ...(steps[step] ?? { text: '', photos: [] }), text: entry.text };
    }
    return { ...answer, steps };
  }

  async function run(
    target: NotesSubject,
    work: () => Promise<CommissioningNotes>,
    /** `notes.failures.<failure>`, worded when it happens, in the language of that moment. */
    failure: Failure,
  ): Promise<boolean> {
    try {
      const answer = await work();
      // Another plant or draft was opened meanwhile: its notes are not these.
      if (subjectKey(currentSubject()) === subjectKey(target))
        notes.value = withTyped(target, answer);
      error.value = null;
      return true;
    } catch (caught) {
      error.value = errorMessage(caught, translate(`notes.failures.${failure}`));
      return false;
    }
  }

  async function saveText(step: NoteStep): Promise<void> {
    const entry = pending.get(step);
    if (!entry) return;
    clearTimeout(entry.timer);
    pending.delete(step);
    await run(entry.subject, () => calls.setText(entry.subject, step, entry.text), 'save');
  }

  /** Saves every step's typed text now (leaving a step, producing the report). */
  async function flush(): Promise<void> {
    await Promise.all([...pending.keys()].map(saveText));
  }

  function setText(step: NoteStep, text: string): void {
    const target = currentSubject();
    if (!target) return;
    const current = notes.value ?? { steps: {}, updatedAt: null };
    const previous = current.steps[step] ?? { text: '', photos: [] };
    notes.value = { ...current, steps: { ...current.steps, [step]: { ...previous, text } } };
    const entry = pending.get(step);
    if (entry) clearTimeout(entry.timer);
    pending.set(step, {
      subject: target,
      text,
      timer: setTimeout(() => void saveText(step), NOTE_SAVE_DELAY_MS),
    });
  }

  /** One photo added or removed, after the typed text is saved (the answer carries it). */
  async function photoWork(
    step: NoteStep,
    work: (target: NotesSubject) => Promise<CommissioningNotes>,
    failure: Failure,
  ): Promise<boolean> {
    const target = currentSubject();
    if (!target) return false;
    await flush();
    busy.value = step;
    try {
      return await run(target, () => work(target), failure);
    } finally {
      busy.value = null;
    }
  }

  const addPhoto = (step: NoteStep, photo: NotePhotoInput) =>
    photoWork(step, (target) => calls.addPhoto(target, step, photo), 'keep');
  const removePhoto = (step: NoteStep, photoId: string) =>
    photoWork(step, (target) => calls.removePhoto(target, step, photoId), 'remove');

  watch(
    () => subjectKey(currentSubject()),
    async (key, previous) => {
      if (key === previous) return;
      await flush();
      notes.value = null;
      error.value = null;
      const target = currentSubject();
      if (target) await run(target, () => calls.get(target), 'read');
    },
    { immediate: true },
  );

  // Typed text is not lost when the wizard is left before the delay ends.
  onScopeDispose(() => void flush());

  return { notes, error, busy, setText, flush, addPhoto, removePhoto };
}
