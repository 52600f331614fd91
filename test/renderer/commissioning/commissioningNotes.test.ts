// @vitest-environment happy-dom
import { flushPromises } from '@vue/test-utils';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { effectScope, ref } from 'vue';
import type {
  CommissioningNotes,
  NotesSubject,
  PlantDeskBridge,
} from '../../../electron/ipc/contract.ts';
import { PlantDeskError, provideBridgeForTests } from '../../../renderer/src/bridge.ts';
import { cloningBridge } from '../support/acrossTheBridge.ts';
import {
  NOTE_SAVE_DELAY_MS,
  useCommissioningNotes,
} from '../../../renderer/src/composables/useCommissioningNotes.ts';

/**
 * The wizard's notes as the host keeps them: text saved once typing pauses (one step's text per
 * call), never undone by a late answer, saved to its own plant when another is opened; photos
 * added after the typed text is saved.
 */

const PLANT_A = { plantUuid: '11111111-1111-4111-8111-111111111111' };
const PLANT_B = { plantUuid: '22222222-2222-4222-8222-222222222222' };
const PNG = 'data:image/png;base64,iVBORw0KGgo=';

/** A host keeping notes in memory; `hold` keeps answers back until `release`. */
function fakeHost() {
  const kept = new Map<string, CommissioningNotes>();
  const key = (subject: NotesSubject) => JSON.stringify(subject);
  const calls: unknown[][] = [];
  let held: (() => void)[] | null = null;
  const answer = <T>(value: () => T) =>
    new Promise<T>((resolve) => (held ? held.push(() => resolve(value())) : resolve(value())));
  const notesOf = (subject: NotesSubject) =>
    kept.get(key(subject)) ?? { steps: {}, updatedAt: null };
  const invoke = vi.fn(async (channel: string, ...args: unknown[]) => {
    calls.push([channel, ...args]);
    const [subject, step, value] = args as [NotesSubject, 'sensors', unknown];
    if (channel === 'commissioningNotes.get') return answer(() => notesOf(subject));
    if (
      channel === 'commissioningNotes.addPhoto' &&
      (value as { dataUrl: string }).dataUrl === ''
    ) {
      throw new PlantDeskError({ kind: 'invalidArguments', message: 'not an image' });
    }
    const current = notesOf(subject);
    const entry = current.steps[step] ?? { text: '', photos: [] };
    const next: CommissioningNotes = {
      updatedAt: '2026-11-20T10:00:00Z',
      steps: {
        ...current.steps,
        [step]:
          channel === 'commissioningNotes.setText'
            ? { ...entry, text: value as string }
            : {
                ...entry,
                photos: [
                  ...entry.photos,
                  { photoId: 'p1', dataUrl: PNG, caption: '', addedAt: '2026-11-20T10:00:00Z' },
                ],
              },
      },
    };
    kept.set(key(subject), next);
    return answer(() => next);
  });
  const bridge = { invoke, call: vi.fn(), on: vi.fn(() => () => {}) } as unknown as PlantDeskBridge;
  return {
    bridge,
    calls,
    kept: (subject: NotesSubject) => kept.get(key(subject)),
    hold: () => (held = []),
    release: () => {
      const waiting = held ?? [];
      held = null;
      waiting.forEach((resolve) => resolve());
    },
  };
}

let host: ReturnType<typeof fakeHost>;
const scope = effectScope();

beforeEach(() => {
  vi.useFakeTimers();
  host = fakeHost();
  // Arguments copied as Electron copies them: a reactive subject would fail there.
  provideBridgeForTests(cloningBridge(host.bridge));
});
afterEach(() => {
  vi.useRealTimers();
});

function notesFor(subject: { value: NotesSubject | null }) {
  return scope.run(() => useCommissioningNotes(() => subject.value))!;
}

const textCalls = () => host.calls.filter(([channel]) => channel === 'commissioningNotes.setText');

describe('useCommissioningNotes', () => {
  test('saves the text once typing pauses, with the last text only', async () => {
    const notes = notesFor(ref(PLANT_A));
    await flushPromises();
    notes.setText('sensors', 'CT');
    notes.setText('sensors', 'CT on L1');
    expect(notes.notes.value?.steps.sensors?.text).toBe('CT on L1');
    vi.advanceTimersByTime(NOTE_SAVE_DELAY_MS - 1);
    expect(textCalls()).toEqual([]);
    vi.advanceTimersByTime(1);
    await flushPromises();
    expect(textCalls()).toEqual([['commissioningNotes.setText', PLANT_A, 'sensors', 'CT on L1']]);
    expect(host.kept(PLANT_A)?.steps.sensors?.text).toBe('CT on L1');
  });

  test('a late answer does not undo what was typed meanwhile', async () => {
    const notes = notesFor(ref(PLANT_A));
    await flushPromises();
    notes.setText('sensors', 'CT on L1');
    host.hold();
    vi.advanceTimersByTime(NOTE_SAVE_DELAY_MS);
    notes.setText('sensors', 'CT on L1, arrow');
    host.release();
    await flushPromises();
    expect(notes.notes.value?.steps.sensors?.text).toBe('CT on L1, arrow');
    vi.advanceTimersByTime(NOTE_SAVE_DELAY_MS);
    await flushPromises();
    expect(host.kept(PLANT_A)?.steps.sensors?.text).toBe('CT on L1, arrow');
  });

  test('text typed for one plant is saved to it when another is opened', async () => {
    const subject = ref<NotesSubject | null>(PLANT_A);
    const notes = notesFor(subject);
    await flushPromises();
    notes.setText('plant', 'Key at the neighbour’s');
    subject.value = PLANT_B;
    await flushPromises();
    expect(host.kept(PLANT_A)?.steps.plant?.text).toBe('Key at the neighbour’s');
    expect(host.kept(PLANT_B)).toBeUndefined();
    expect(notes.notes.value).toEqual({ steps: {}, updatedAt: null });
  });

  test('adding a photo saves the typed text first; a refused photo says why', async () => {
    const notes = notesFor(ref(PLANT_A));
    await flushPromises();
    notes.setText('sensors', 'Meter cabinet');
    expect(await notes.addPhoto('sensors', { dataUrl: PNG })).toBe(true);
    expect(host.calls.map(([channel]) => channel)).toEqual([
      'commissioningNotes.get',
      'commissioningNotes.setText',
      'commissioningNotes.addPhoto',
    ]);
    expect(notes.notes.value?.steps.sensors).toMatchObject({
      text: 'Meter cabinet',
      photos: [{ photoId: 'p1' }],
    });
    expect(notes.busy.value).toBeNull();

    expect(await notes.addPhoto('sensors', { dataUrl: '' })).toBe(false);
    expect(notes.error.value).toBe('not an image');
    expect(notes.notes.value?.steps.sensors?.photos).toHaveLength(1);
  });
});
