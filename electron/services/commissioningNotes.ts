import { createHash, randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import {
  NOTE_STEPS,
  NotePhotoInput,
  NoteText,
  PHOTOS_PER_STEP_MAX,
  PHOTOS_TOTAL_CHARS_MAX,
  type CommissioningNotes,
  type NoteStep,
  type NotesSubject,
  type StepNotes,
} from '../ipc/contract.ts';
import {
  ensurePrivateFolder,
  readJsonFile,
  setAsideCorruptFile,
  writeJsonFileAtomic,
} from './dataFolder.ts';
import type { Translate } from '../../i18n/translator.ts';
import { HostError } from './hostError.ts';
import { sayIn } from './hostText.ts';
import type { DraftOwner } from './drafts/draftStore.ts';
import { silentLogger, type Logger } from './logger.ts';

/**
 * The installer's notes and photos of a commissioning, per wizard step: one JSON file per
 * plant or draft, 0600 in 0700 folders (the photos show a customer's premises). Where the file
 * is comes from `locate`, so the host decides whose it is (a draft's owner folder, a plant's
 * environment); this module keeps the limits, so no call can grow a file past them.
 */

export interface NotesLocation {
  /** The folders to create (0700), outermost first; the last holds the file. */
  folders: string[];
  file: string;
}

export interface CommissioningNotesDeps {
  /** Where a subject's notes live; throws a HostError when the subject is not the user's. */
  locate(subject: NotesSubject): NotesLocation;
  now?: () => Date;
  newId?: () => string;
  log?: Logger;
  /** The user's language when a refusal is made; default English. */
  t?: () => Translate;
}

export interface CommissioningNotesService {
  get(subject: NotesSubject): CommissioningNotes;
  setText(subject: NotesSubject, step: NoteStep, text: string): CommissioningNotes;
  addPhoto(subject: NotesSubject, step: NoteStep, photo: NotePhotoInput): CommissioningNotes;
  removePhoto(subject: NotesSubject, step: NoteStep, photoId: string): CommissioningNotes;
  /** Gives `to` the notes of `from` when `to` has none yet (a draft's, once it is sent). */
  adopt(from: NotesSubject, to: NotesSubject): void;
  /**
   * Locates a subject's notes now and deletes them when called: a draft's notes are found
   * while the draft exists, and deleted only once the draft is.
   */
  removal(subject: NotesSubject): () => void;
}

export interface NotesLocatorDeps {
  dataDir: string;
  /** The active environment: a plant's notes are its. */
  environmentId(): string;
  /** The owner of the drafts at hand; throws when there is none. */
  draftOwner(): DraftOwner;
  /** Throws unless the owner has this draft. */
  hasDraft(draftId: string): void;
  draftFolders(dataDir: string, owner: DraftOwner): string[];
}

/**
 * A draft's notes beside it (`<draftId>.notes.json` in its owner's folder, which the draft list
 * never reads); a plant's in `commissioning-notes/<environment digest>/<plantUuid>.json`.
 */
export function notesLocator(deps: NotesLocatorDeps): (subject: NotesSubject) => NotesLocation {
  return (subject) => {
    if ('draftId' in subject) {
      deps.hasDraft(subject.draftId);
      const folders = deps.draftFolders(deps.dataDir, deps.draftOwner());
      const file = join(folders.at(-1)!, `${subject.draftId.toLowerCase()}.notes.json`);
      return { folders, file };
    }
    const root = join(deps.dataDir, 'commissioning-notes');
    const environment = createHash('sha256')
      .update(deps.environmentId())
      .digest('hex')
      .slice(0, 32);
    const folder = join(root, environment);
    return {
      folders: [root, folder],
      file: join(folder, `${subject.plantUuid.toLowerCase()}.json`),
    };
  };
}

const STORE_VERSION = 1;

const StoredPhoto = z.object({
  photoId: z.string().min(1).max(64),
  dataUrl: NotePhotoInput.shape.dataUrl,
  caption: z.string().max(200),
  addedAt: z.string(),
});
const StoredNotes = z.object({
  version: z.literal(STORE_VERSION),
  notes: z.object({
    steps: z.partialRecord(
      z.enum(NOTE_STEPS),
      z.object({ text: NoteText, photos: z.array(StoredPhoto).max(PHOTOS_PER_STEP_MAX) }),
    ),
    updatedAt: z.string().nullable(),
  }),
});

const empty = (): CommissioningNotes => ({ steps: {}, updatedAt: null });

/** The decoded start of a photo must be the format its data URL declares. */
const MAGIC: Record<string, (bytes: Buffer) => boolean> = {
  jpeg: (bytes) => bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff,
  png: (bytes) => bytes.subarray(0, 8).equals(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10])),
  webp: (bytes) =>
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
    bytes.subarray(8, 12).toString('latin1') === 'WEBP',
};

function isImage(dataUrl: string): boolean {
  const match = /^data:image\/(jpeg|png|webp);base64,/.exec(dataUrl);
  if (!match) return false;
  const head = Buffer.from(dataUrl.slice(match[0].length, match[0].length + 24), 'base64');
  return MAGIC[match[1]!]!(head);
}

const photoChars = (notes: CommissioningNotes) =>
  Object.values(notes.steps).reduce(
    (sum, step) => sum + (step?.photos ?? []).reduce((inner, p) => inner + p.dataUrl.length, 0),
    0,
  );

export function createCommissioningNotes(deps: CommissioningNotesDeps): CommissioningNotesService {
  const now = deps.now ?? (() => new Date());
  const newId = deps.newId ?? randomUUID;
  const log = deps.log ?? silentLogger;
  const say = sayIn(deps.t);

  function read(location: NotesLocation): CommissioningNotes {
    const found = readJsonFile(location.file);
    if (found.status === 'missing') return empty();
    const parsed = found.status === 'ok' ? StoredNotes.safeParse(found.value) : undefined;
    if (!parsed?.success) {
      const copy = setAsideCorruptFile(location.file);
      log.warn('Set aside an unreadable notes file', { path: location.file, copy });
      return empty();
    }
    return parsed.data.notes as CommissioningNotes;
  }

  function write(location: NotesLocation, notes: CommissioningNotes): void {
    for (const folder of location.folders) ensurePrivateFolder(folder);
    writeJsonFileAtomic(location.file, { version: STORE_VERSION, notes });
  }

  function change(
    subject: NotesSubject,
    step: NoteStep,
    edit: (current: StepNotes) => StepNotes,
  ): CommissioningNotes {
    const location = deps.locate(subject);
    const notes = read(location);
    const next: CommissioningNotes = {
      steps: { ...notes.steps, [step]: edit(notes.steps[step] ?? { text: '', photos: [] }) },
      updatedAt: now().toISOString(),
    };
    write(location, next);
    return next;
  }

  return {
    get: (subject) => read(deps.locate(subject)),

    setText(subject, step, text) {
      const checked = NoteText.parse(text);
      return change(subject, step, (current) => ({ ...current, text: checked }));
    },

    addPhoto(subject, step, input) {
      const photo = NotePhotoInput.parse(input);
      if (!isImage(photo.dataUrl)) {
        throw new HostError('invalidArguments', say('host.notes.notImage'));
      }
      const location = deps.locate(subject);
      const notes = read(location);
      const photos = notes.steps[step]?.photos ?? [];
      if (photos.length >= PHOTOS_PER_STEP_MAX) {
        throw new HostError(
          'invalidArguments',
          say('host.notes.tooManyPhotos', {}, PHOTOS_PER_STEP_MAX),
        );
      }
      if (photoChars(notes) + photo.dataUrl.length > PHOTOS_TOTAL_CHARS_MAX) {
        throw new HostError('invalidArguments', say('host.notes.tooLarge'));
      }
      return change(subject, step, (current) => ({
        text: current.text,
        photos: [
          ...current.photos,
          {
            photoId: newId(),
            dataUrl: photo.dataUrl,
            caption: photo.caption ?? '',
            addedAt: now().toISOString(),
          },
        ],
      }));
    },

    removePhoto(subject, step, photoId) {
      return change(subject, step, (current) => ({
        text: current.text,
        photos: current.photos.filter((photo) => photo.photoId !== photoId),
      }));
    },

    adopt(from, to) {
      const source = deps.locate(from);
      const target = deps.locate(to);
      const notes = read(source);
      if (notes.updatedAt === null || read(target).updatedAt !== null) return;
      write(target, notes);
    },

    removal(subject) {
      const { file } = deps.locate(subject);
      return () => rmSync(file, { force: true });
    },
  };
}
