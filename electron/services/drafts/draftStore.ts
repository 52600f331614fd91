import { createHash } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { DraftContent, type Draft } from '../../ipc/contract.ts';
import {
  ensurePrivateFolder,
  readJsonFile,
  setAsideCorruptFile,
  writeJsonFileAtomic,
} from '../dataFolder.ts';
import { silentLogger, type Logger } from '../logger.ts';
import { normalizeEmail } from '../secrets.ts';

/**
 * Where commissioning drafts outlive a restart: `<data folder>/drafts/<owner>/<draftId>.json`,
 * one file per draft, 0600 in 0700 folders (they name a customer's site and its equipment).
 * `<owner>` is a digest of the environment and account, so that a folder never lists another's
 * drafts; each file also says whose it is, and a file in the wrong folder is not read.
 */

/** Whose drafts: one environment and one account in it. */
export interface DraftOwner {
  environmentId: string;
  /** The account's e-mail (compared without case, as the server does). */
  account: string;
}

export interface DraftStore {
  list(owner: DraftOwner): Draft[];
  /** Undefined when the owner has no such draft (or its file was damaged and set aside). */
  read(owner: DraftOwner, draftId: string): Draft | undefined;
  /** Writes the draft as a whole; its environment and account must be the owner's. */
  write(owner: DraftOwner, draft: Draft): void;
  /** True when there was a file to delete. */
  remove(owner: DraftOwner, draftId: string): boolean;
}

const STORE_VERSION = 1;

const StoredDraft = z.object({
  version: z.literal(STORE_VERSION),
  draft: z.object({
    draftId: z.uuid(),
    environmentId: z.string().min(1),
    account: z.string().min(1),
    createdAt: z.string(),
    updatedAt: z.string(),
    content: DraftContent,
    status: z.enum(['notSent', 'partlySent', 'sent']),
    sent: z.object({
      plantUuid: z.string().nullable(),
      devices: z.record(z.string(), z.string()),
      sensors: z.record(z.string(), z.string()),
      vendors: z.record(z.string(), z.string()),
    }),
    refusals: z.array(
      z.object({
        section: z.enum(['plant', 'devices', 'sensors', 'vendors']),
        key: z.string().optional(),
        field: z.string().optional(),
        kind: z.enum(['refused', 'conflict', 'secretNeeded', 'notSent']),
        message: z.string(),
        status: z.number().optional(),
      }),
    ),
    lastSentAt: z.string().nullable(),
  }),
});

const DRAFT_FILE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.json$/;

export function ownerOf(environmentId: string, account: string): DraftOwner {
  return { environmentId, account: normalizeEmail(account) };
}

function sameOwner(a: DraftOwner, b: DraftOwner): boolean {
  return a.environmentId === b.environmentId && normalizeEmail(a.account) === b.account;
}

/** A folder name that is never a path and says nothing about the account. */
function ownerFolderName(owner: DraftOwner): string {
  return createHash('sha256')
    .update(`${owner.environmentId}\n${owner.account}`)
    .digest('hex')
    .slice(0, 32);
}

/** Draft ids come from randomUUID or the contract's Uuid schema; anything else names no file. */
function fileName(draftId: string): string | undefined {
  const name = `${draftId.toLowerCase()}.json`;
  return DRAFT_FILE.test(name) ? name : undefined;
}

/** The folders of an owner's drafts, outermost first: what sits beside a draft goes in the last. */
export function draftFolders(dataDir: string, owner: DraftOwner): [string, string] {
  const root = join(dataDir, 'drafts');
  return [root, join(root, ownerFolderName(owner))];
}

export function createDraftStore(dataDir: string, log: Logger = silentLogger): DraftStore {
  const root = join(dataDir, 'drafts');
  const folderOf = (owner: DraftOwner) => draftFolders(dataDir, owner)[1];

  function readFile(owner: DraftOwner, path: string): Draft | undefined {
    const read = readJsonFile(path);
    if (read.status === 'missing') return undefined;
    const parsed = read.status === 'ok' ? StoredDraft.safeParse(read.value) : undefined;
    if (!parsed?.success) {
      const copy = setAsideCorruptFile(path);
      log.warn('Set aside an unreadable draft', { path, copy });
      return undefined;
    }
    const draft = parsed.data.draft as Draft;
    if (!sameOwner(owner, draft)) {
      // Copied or moved by hand: it stays where it is, but is nobody's here.
      log.warn('A draft file belongs to another environment or account; not read', { path });
      return undefined;
    }
    return draft;
  }

  return {
    list(owner) {
      let names: string[];
      try {
        names = readdirSync(folderOf(owner));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      }
      return names
        .filter((name) => DRAFT_FILE.test(name))
        .flatMap((name) => readFile(owner, join(folderOf(owner), name)) ?? [])
        .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
    },

    read(owner, draftId) {
      const name = fileName(draftId);
      return name === undefined ? undefined : readFile(owner, join(folderOf(owner), name));
    },

    write(owner, draft) {
      const name = fileName(draft.draftId);
      if (name === undefined) throw new Error('A draft id must be a UUID');
      if (!sameOwner(owner, draft)) {
        throw new Error('A draft is written only to the folder of its environment and account');
      }
      ensurePrivateFolder(root);
      ensurePrivateFolder(folderOf(owner));
      writeJsonFileAtomic(join(folderOf(owner), name), { version: STORE_VERSION, draft });
    },

    remove(owner, draftId) {
      const name = fileName(draftId);
      if (name === undefined) return false;
      const path = join(folderOf(owner), name);
      if (readJsonFile(path).status === 'missing') return false;
      rmSync(path, { force: true });
      return true;
    },
  };
}
