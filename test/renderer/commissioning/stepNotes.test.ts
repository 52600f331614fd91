// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, onTestFinished, test, vi } from 'vitest';
import { defineComponent, h } from 'vue';
import type { CommissioningNotes, NotePhotoInput } from '../../../electron/ipc/contract.ts';
import StepNotes from '../../../renderer/src/components/commissioning/notes/StepNotes.vue';
import { useCommissioningNotes } from '../../../renderer/src/composables/useCommissioningNotes.ts';
import { i18n } from '../../../renderer/src/i18n.ts';
import { fakeCanvas } from '../charts/support.ts';
import { mountWithApp, type MountedApp } from '../support/mountWithApp.ts';

/**
 * One step's notes and photos: the text field and every control named; a photo from disk and
 * one from the camera are downscaled and kept; the camera stops when its dialog closes, and a
 * refused camera says what to do instead.
 */

const PLANT = { plantUuid: '11111111-1111-4111-8111-111111111111' };
const JPEG = 'data:image/jpeg;base64,/9j/4AAQ';

const Harness = defineComponent({
  setup() {
    const notes = useCommissioningNotes(() => PLANT);
    return () => h(StepNotes, { step: 'sensors', notes });
  },
});

/** A host that keeps what it is given. */
function notesHost(initial: CommissioningNotes) {
  let kept = initial;
  return {
    'commissioningNotes.get': () => kept,
    'commissioningNotes.addPhoto': ([, step, photo]: [unknown, 'sensors', NotePhotoInput]) => {
      const entry = kept.steps[step] ?? { text: '', photos: [] };
      const photos = [
        ...entry.photos,
        {
          photoId: `p${entry.photos.length + 1}`,
          dataUrl: photo.dataUrl,
          caption: '',
          addedAt: '',
        },
      ];
      kept = { updatedAt: '2026-11-20T10:00:00Z', steps: { [step]: { ...entry, photos } } };
      return kept;
    },
    'commissioningNotes.removePhoto': ([, step, photoId]: [unknown, 'sensors', string]) => {
      const entry = kept.steps[step]!;
      const photos = entry.photos.filter((photo) => photo.photoId !== photoId);
      kept = { ...kept, steps: { [step]: { ...entry, photos } } };
      return kept;
    },
  };
}

const WITH_PHOTO: CommissioningNotes = {
  updatedAt: '2026-11-20T10:00:00Z',
  steps: {
    sensors: {
      text: 'CT on L1',
      photos: [{ photoId: 'p1', dataUrl: JPEG, caption: '', addedAt: '2026-11-20T10:00:00Z' }],
    },
  },
};

const calls = (app: MountedApp, channel: string) =>
  app.calls.filter((call) => call.channel === channel);

/** Mounted without notes yet, its camera dialog opened. */
async function openCamera(): Promise<MountedApp> {
  const app = await mountWithApp(Harness, {
    channels: notesHost({ steps: {}, updatedAt: null }),
  });
  await app.settle();
  await app.wrapper.find('button[aria-label="Take a photo for the Sensors step"]').trigger('click');
  await app.settle();
  return app;
}

let canvasSizes: { width: number; height: number }[];
beforeEach(() => {
  fakeCanvas();
  canvasSizes = [];
  vi.spyOn(HTMLCanvasElement.prototype, 'toDataURL').mockImplementation(function (
    this: HTMLCanvasElement,
  ) {
    canvasSizes.push({ width: this.width, height: this.height });
    return JPEG;
  });
});
afterEach(() => {
  i18n.global.locale.value = 'en';
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('StepNotes', () => {
  test('shows the step’s note and photos, each control named, and removes a photo', async () => {
    const app = await mountWithApp(Harness, { channels: notesHost(WITH_PHOTO) });
    await app.settle();
    const text = app.wrapper.find('textarea');
    expect(text.element.value).toBe('CT on L1');
    expect(app.wrapper.find(`label[for="${text.attributes('id')}"]`).text()).toBe(
      'Notes on the Sensors step',
    );
    expect(app.wrapper.find('img').attributes('alt')).toBe('Photo 1 of the Sensors step');
    expect(app.wrapper.find('input[type="file"]').attributes('aria-label')).toBe(
      'Add photos from disk for the Sensors step',
    );
    expect(app.wrapper.find('input[type="file"]').attributes('accept')).toBe('image/*');
    for (const button of app.wrapper.findAll('button')) {
      expect(button.attributes('aria-label') ?? button.text()).not.toBe('');
    }

    await app.wrapper
      .find('button[aria-label="Remove photo 1 of the Sensors step"]')
      .trigger('click');
    await app.settle();
    expect(calls(app, 'commissioningNotes.removePhoto')[0]?.args).toEqual([PLANT, 'sensors', 'p1']);
    expect(app.wrapper.find('img').exists()).toBe(false);
  });

  test('a photo picked from disk is downscaled to 1600 px before it is kept', async () => {
    const close = vi.fn();
    vi.stubGlobal(
      'createImageBitmap',
      vi.fn(async () => ({ width: 4000, height: 3000, close })),
    );
    const app = await mountWithApp(Harness, {
      channels: notesHost({ steps: {}, updatedAt: null }),
    });
    await app.settle();
    const input = app.wrapper.find('input[type="file"]');
    const file = new File([new Uint8Array([137, 80, 78, 71])], 'ct.png', { type: 'image/png' });
    Object.defineProperty(input.element, 'files', { value: [file], configurable: true });
    await input.trigger('change');
    await vi.waitFor(() => expect(calls(app, 'commissioningNotes.addPhoto')).toHaveLength(1));
    expect(canvasSizes).toEqual([{ width: 1600, height: 1200 }]);
    expect(close).toHaveBeenCalled();
    expect(calls(app, 'commissioningNotes.addPhoto')[0]?.args).toEqual([
      PLANT,
      'sensors',
      { dataUrl: JPEG },
    ]);
    await app.settle();
    expect(app.wrapper.find('img').attributes('src')).toBe(JPEG);
  });

  test('a file that is not an image is refused with its name', async () => {
    const app = await mountWithApp(Harness, {
      channels: notesHost({ steps: {}, updatedAt: null }),
    });
    await app.settle();
    const input = app.wrapper.find('input[type="file"]');
    const file = new File(['hello'], 'notes.txt', { type: 'text/plain' });
    Object.defineProperty(input.element, 'files', { value: [file], configurable: true });
    await input.trigger('change');
    await app.settle();
    expect(app.wrapper.find('[role="alert"]').text()).toContain('notes.txt is not an image');
    expect(calls(app, 'commissioningNotes.addPhoto')).toHaveLength(0);
  });

  test('the camera dialog captures a frame, keeps it, and stops the camera', async () => {
    const track = { stop: vi.fn() };
    const stream = { getTracks: () => [track] };
    const getUserMedia = vi.fn(async () => stream);
    vi.stubGlobal('navigator', { ...navigator, mediaDevices: { getUserMedia } });
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
    // happy-dom plays no video: the frame's size is what a 1080p camera gives.
    Object.defineProperties(HTMLVideoElement.prototype, {
      videoWidth: { get: () => 1920, configurable: true },
      videoHeight: { get: () => 1080, configurable: true },
    });
    onTestFinished(() => {
      const prototype = HTMLVideoElement.prototype as unknown as Record<string, unknown>;
      delete prototype.videoWidth;
      delete prototype.videoHeight;
    });
    const app = await openCamera();
    expect(getUserMedia).toHaveBeenCalledWith(expect.objectContaining({ audio: false }));
    expect(app.wrapper.find('video').attributes('aria-label')).toBe('Camera picture');
    const capture = app.wrapper.find('button[aria-label="Capture the photo"]');
    expect(capture.attributes('disabled')).toBeUndefined();
    await capture.trigger('click');
    await vi.waitFor(() => expect(calls(app, 'commissioningNotes.addPhoto')).toHaveLength(1));
    expect(canvasSizes).toEqual([{ width: 1600, height: 900 }]);
    expect(track.stop).toHaveBeenCalled();
    await app.settle();
    expect(app.wrapper.find('video').exists()).toBe(false);
  });

  test('a refused camera says to pick a photo from disk instead', async () => {
    const getUserMedia = vi.fn(async () => {
      throw new DOMException('Permission denied', 'NotAllowedError');
    });
    vi.stubGlobal('navigator', { ...navigator, mediaDevices: { getUserMedia } });
    const app = await openCamera();
    expect(app.wrapper.find('[role="alert"]').text()).toBe(
      'The camera was not allowed. Pick a photo from disk instead.',
    );
    expect(
      app.wrapper.find('button[aria-label="Capture the photo"]').attributes('disabled'),
    ).toBeDefined();
  });
});

describe('StepNotes in German', () => {
  const photo = (n: number) => ({ photoId: `p${n}`, dataUrl: JPEG, caption: '', addedAt: '' });

  test('its controls named in German, the limit as a plural, a refused file said in German', async () => {
    i18n.global.locale.value = 'de';
    const app = await mountWithApp(Harness, {
      channels: notesHost({
        updatedAt: '2026-11-20T10:00:00Z',
        steps: { sensors: { text: '', photos: [1, 2, 3, 4, 5, 6].map(photo) } },
      }),
    });
    await app.settle();
    expect(app.wrapper.find('h3').text()).toBe('Notizen des Installateurs: Sensoren');
    expect(app.wrapper.find('label.visually-hidden').text()).toBe('Notizen zum Schritt Sensoren');
    expect(app.wrapper.find('ul').attributes('aria-label')).toBe('Fotos des Schritts Sensoren');
    expect(app.wrapper.find('img').attributes('alt')).toBe('Foto 1 des Schritts Sensoren');
    expect(
      app.wrapper.find('button[aria-label="Foto 2 des Schritts Sensoren entfernen"]').exists(),
    ).toBe(true);
    expect(app.wrapper.find('button[aria-label="Foto aufnehmen: Schritt Sensoren"]').text()).toBe(
      'Foto aufnehmen',
    );
    expect(app.wrapper.find('[role="status"]').text()).toBe('Höchstens 6 Fotos pro Schritt.');

    await app.wrapper
      .find('button[aria-label="Foto 6 des Schritts Sensoren entfernen"]')
      .trigger('click');
    await app.settle();
    const input = app.wrapper.find('input[type="file"]');
    expect(input.attributes('aria-label')).toBe(
      'Fotos vom Datenträger hinzufügen: Schritt Sensoren',
    );
    const file = new File(['hello'], 'notizen.txt', { type: 'text/plain' });
    Object.defineProperty(input.element, 'files', { value: [file], configurable: true });
    await input.trigger('change');
    await app.settle();
    expect(app.wrapper.find('[role="alert"]').text()).toBe('notizen.txt ist kein Bild');
  });

  test('a refused camera, in the camera dialog worded in German', async () => {
    i18n.global.locale.value = 'de';
    const getUserMedia = vi.fn(async () => {
      throw new DOMException('Permission denied', 'NotAllowedError');
    });
    vi.stubGlobal('navigator', { ...navigator, mediaDevices: { getUserMedia } });
    const app = await mountWithApp(Harness, {
      channels: notesHost({ steps: {}, updatedAt: null }),
    });
    await app.settle();
    await app.wrapper
      .find('button[aria-label="Foto aufnehmen: Schritt Sensoren"]')
      .trigger('click');
    await app.settle();
    expect(app.wrapper.find('[role="dialog"]').text()).toContain('Foto aufnehmen: Sensoren');
    expect(app.wrapper.find('[role="alert"]').text()).toBe(
      'Die Kamera wurde nicht erlaubt. Wählen Sie stattdessen ein Foto vom Datenträger.',
    );
    expect(app.wrapper.find('button[aria-label="Das Foto aufnehmen"]').text()).toBe('Aufnehmen');
  });
});
