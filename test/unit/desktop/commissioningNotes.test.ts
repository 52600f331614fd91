import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  PHOTO_DATA_URL_MAX,
  PHOTOS_PER_STEP_MAX,
  type ChannelHandlers,
} from '../../../electron/ipc/contract.ts';
import { createDispatcher } from '../../../electron/ipc/dispatch.ts';
import {
  createCommissioningNotes,
  notesLocator,
  type CommissioningNotesService,
} from '../../../electron/services/commissioningNotes.ts';
import { draftFolders, ownerOf } from '../../../electron/services/drafts/draftStore.ts';
import { HostError } from '../../../electron/services/hostError.ts';
import type { AppLocale } from '../../../i18n/locales.ts';
import { createTranslator } from '../../../i18n/translator.ts';

/** The notes service over a real folder, and the channels' argument checks. */

const PLANT = { plantUuid: '3f1c2a52-9d1e-4f7a-8a59-3b8b6c1d2e4f' };
const DRAFT = { draftId: '7f0c2a52-9d1e-4f7a-8a59-3b8b6c1d2e4f' };
const OTHER_DRAFT = { draftId: '8e0c2a52-9d1e-4f7a-8a59-3b8b6c1d2e4f' };
/** The smallest PNG: 1×1, transparent. */
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
const JPEG = `data:image/jpeg;base64,${Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]).toString('base64')}`;

let dataDir: string;
let service: CommissioningNotesService;
let environmentId: string;
let ids: number;
let locale: AppLocale;

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'plantdesk-notes-'));
  environmentId = 'local';
  ids = 0;
  locale = 'en';
  service = createCommissioningNotes({
    t: () => createTranslator(locale),
    locate: notesLocator({
      dataDir,
      environmentId: () => environmentId,
      draftOwner: () => ownerOf('local', 'alice@example.test'),
      hasDraft: (draftId) => {
        if (draftId !== DRAFT.draftId) throw new HostError('invalidArguments', 'no such draft');
      },
      draftFolders,
    }),
    now: () => new Date('2026-11-20T10:00:00Z'),
    newId: () => `photo-${++ids}`,
  });
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

const mode = (path: string) => statSync(path).mode & 0o777;

describe('commissioning notes', () => {
  it('keeps a plant’s notes per environment, 0600 in 0700 folders', () => {
    expect(service.get(PLANT)).toEqual({ steps: {}, updatedAt: null });
    service.setText(PLANT, 'sensors', 'CT on L1, arrow towards the house');
    const notes = service.addPhoto(PLANT, 'sensors', { dataUrl: PNG, caption: 'CT placement' });
    expect(notes).toEqual({
      steps: {
        sensors: {
          text: 'CT on L1, arrow towards the house',
          photos: [
            {
              photoId: 'photo-1',
              dataUrl: PNG,
              caption: 'CT placement',
              addedAt: '2026-11-20T10:00:00.000Z',
            },
          ],
        },
      },
      updatedAt: '2026-11-20T10:00:00.000Z',
    });
    expect(service.get(PLANT)).toEqual(notes);

    const root = join(dataDir, 'commissioning-notes');
    const [environmentFolder] = readdirSync(root);
    const file = join(root, environmentFolder!, `${PLANT.plantUuid}.json`);
    expect(mode(root)).toBe(0o700);
    expect(mode(join(root, environmentFolder!))).toBe(0o700);
    expect(mode(file)).toBe(0o600);
    expect(readFileSync(file, 'utf8')).not.toContain('local');

    environmentId = 'production';
    expect(service.get(PLANT).updatedAt).toBeNull();
  });

  it('keeps a draft’s notes beside the draft, and only for a draft of the user', () => {
    service.setText(DRAFT, 'plant', 'Key at the neighbour’s');
    const [, ownerFolder] = draftFolders(dataDir, ownerOf('local', 'alice@example.test'));
    const file = join(ownerFolder, `${DRAFT.draftId}.notes.json`);
    expect(mode(join(dataDir, 'drafts'))).toBe(0o700);
    expect(mode(ownerFolder)).toBe(0o700);
    expect(mode(file)).toBe(0o600);
    expect(() => service.get(OTHER_DRAFT)).toThrow('no such draft');

    service.adopt(DRAFT, PLANT);
    expect(service.get(PLANT).steps.plant?.text).toBe('Key at the neighbour’s');
    // A plant that has notes of its own keeps them.
    service.setText(DRAFT, 'plant', 'changed later');
    service.adopt(DRAFT, PLANT);
    expect(service.get(PLANT).steps.plant?.text).toBe('Key at the neighbour’s');

    const removeNotes = service.removal(DRAFT);
    expect(service.get(DRAFT).updatedAt).not.toBeNull();
    removeNotes();
    expect(service.get(DRAFT).updatedAt).toBeNull();
  });

  it('removes a photo by id and keeps the text', () => {
    service.setText(PLANT, 'devices', 'Inverter label photographed');
    service.addPhoto(PLANT, 'devices', { dataUrl: JPEG });
    service.addPhoto(PLANT, 'devices', { dataUrl: PNG });
    const notes = service.removePhoto(PLANT, 'devices', 'photo-1');
    expect(notes.steps.devices?.text).toBe('Inverter label photographed');
    expect(notes.steps.devices?.photos.map((photo) => photo.photoId)).toEqual(['photo-2']);
  });

  it(`keeps at most ${PHOTOS_PER_STEP_MAX} photos a step`, () => {
    for (let index = 0; index < PHOTOS_PER_STEP_MAX; index++) {
      service.addPhoto(PLANT, 'devices', { dataUrl: PNG });
    }
    expect(() => service.addPhoto(PLANT, 'devices', { dataUrl: PNG })).toThrow(
      'A step keeps at most 6 photos: remove one first',
    );
    locale = 'de';
    expect(() => service.addPhoto(PLANT, 'devices', { dataUrl: PNG })).toThrow(
      'Ein Schritt speichert höchstens 6 Fotos: Entfernen Sie zuerst eines',
    );
    expect(service.addPhoto(PLANT, 'vendors', { dataUrl: PNG }).steps.vendors?.photos).toHaveLength(
      1,
    );
  });

  it('limits the photos of one commissioning together', { timeout: 20_000 }, () => {
    const large = `data:image/jpeg;base64,/9j/${'A'.repeat(PHOTO_DATA_URL_MAX - 30)}`;
    for (const step of ['plant', 'sensors', 'devices', 'vendors', 'verification'] as const) {
      service.addPhoto(PLANT, step, { dataUrl: large });
    }
    expect(() => service.addPhoto(PLANT, 'plant', { dataUrl: large })).toThrow(/too large/);
  });

  it('refuses a data URL whose bytes are not the image it declares', () => {
    const fake = `data:image/png;base64,${Buffer.from('<svg onload=alert(1)>').toString('base64')}`;
    expect(() => service.addPhoto(PLANT, 'plant', { dataUrl: fake })).toThrow(HostError);
    expect(service.get(PLANT).updatedAt).toBeNull();
  });

  it('sets a damaged file aside and starts empty', () => {
    service.setText(PLANT, 'plant', 'x');
    const root = join(dataDir, 'commissioning-notes');
    const folder = join(root, readdirSync(root)[0]!);
    const file = join(folder, `${PLANT.plantUuid}.json`);
    writeFileSync(file, '{"version":1,"notes":{"steps":{"plant":{"text":5}}}}');
    expect(service.get(PLANT)).toEqual({ steps: {}, updatedAt: null });
    expect(readdirSync(folder)).toContain(`${PLANT.plantUuid}.json.corrupt`);
  });
});

describe('the commissioningNotes channels’ arguments', () => {
  const handlers = {
    'commissioningNotes.get': vi.fn(async () => ({ steps: {}, updatedAt: null })),
    'commissioningNotes.setText': vi.fn(async () => ({ steps: {}, updatedAt: null })),
    'commissioningNotes.addPhoto': vi.fn(async () => ({ steps: {}, updatedAt: null })),
    'commissioningNotes.removePhoto': vi.fn(async () => ({ steps: {}, updatedAt: null })),
  };
  const dispatch = createDispatcher(handlers as unknown as ChannelHandlers);

  it('passes a valid subject, step, text and photo', async () => {
    expect(await dispatch('commissioningNotes.get', [PLANT])).toMatchObject({ ok: true });
    expect(await dispatch('commissioningNotes.setText', [DRAFT, 'sensors', 'ok'])).toMatchObject({
      ok: true,
    });
    expect(
      await dispatch('commissioningNotes.addPhoto', [PLANT, 'plant', { dataUrl: PNG }]),
    ).toMatchObject({ ok: true });
    expect(
      await dispatch('commissioningNotes.removePhoto', [PLANT, 'plant', 'photo-1']),
    ).toMatchObject({ ok: true });
  });

  it.each([
    ['get', [{ plantUuid: '../../etc' }]],
    ['get', [{ plantUuid: PLANT.plantUuid, draftId: DRAFT.draftId }]],
    ['get', [{}]],
    ['setText', [PLANT, 'report', 'the report has no notes of its own']],
    ['setText', [PLANT, 'plant', 'x'.repeat(4001)]],
    ['setText', [PLANT, 'plant', 42]],
    ['addPhoto', [PLANT, 'plant', { dataUrl: 'https://example.com/a.png' }]],
    ['addPhoto', [PLANT, 'plant', { dataUrl: 'data:image/svg+xml;base64,PHN2Zz4=' }]],
    ['addPhoto', [PLANT, 'plant', { dataUrl: `data:image/jpeg;base64,${'A'.repeat(2_000_000)}` }]],
    ['addPhoto', [PLANT, 'plant', { dataUrl: PNG, path: '/etc/passwd' }]],
    ['removePhoto', [PLANT, 'plant', '../x']],
  ])('refuses %s with case %#', async (name, args) => {
    const channel = `commissioningNotes.${name}` as keyof typeof handlers;
    handlers[channel].mockClear();
    const answer = await dispatch(channel, args);
    expect(answer).toMatchObject({ ok: false, error: { kind: 'invalidArguments' } });
    expect(handlers[channel]).not.toHaveBeenCalled();
  });
});
