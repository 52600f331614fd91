import { randomUUID } from 'node:crypto';
import type { Draft, DraftContent, DraftSendResult } from '../../ipc/contract.ts';
import type { ApiClient } from '../api/apiClient.ts';
import type { Translate } from '../../../i18n/translator.ts';
import { HostError } from '../hostError.ts';
import { sayIn } from '../hostText.ts';
import { silentLogger, type Logger } from '../logger.ts';
import { draftStatus, sendDraft } from './draftSender.ts';
import { changesToSent } from './draftSentItems.ts';
import type { DraftOwner, DraftStore } from './draftStore.ts';

/**
 * The drafts of the user at hand: what the `drafts.*` channels do. Every operation is for one
 * owner (an environment and an account), asked of `owner()` at each call, so a draft is never
 * listed, read, changed or sent under another environment or account than its own.
 */

export interface DraftServiceDeps {
  store: DraftStore;
  /** The active environment and its account; throws (HostError `signedOut`) when there is none. */
  owner(): DraftOwner;
  /**
   * The API client of `owner`'s environment while signed in as `owner`'s account; throws
   * otherwise. Asked before each request of a send.
   */
  clientFor(owner: DraftOwner): ApiClient;
  now?: () => Date;
  newId?: () => string;
  log?: Logger;
  /** The user's language when a refusal is made; default English. */
  t?: () => Translate;
}

export interface DraftService {
  list(): Draft[];
  get(draftId: string): Draft;
  save(input: { draftId?: string; content: DraftContent }): Draft;
  remove(draftId: string): void;
  send(
    draftId: string,
    input?: { secrets?: Record<string, Record<string, string>> },
  ): Promise<DraftSendResult>;
}

/** The external id a draft's plant gets when the installer gave none: it identifies the plant. */
export function draftExternalId(draftId: string): string {
  return `plantdesk-draft-${draftId}`;
}

/** Without an external id a retried create could not find the plant the first one made. */
function withIdentity(content: DraftContent, draftId: string): DraftContent {
  const externalIds = content.plant.externalIds ?? [];
  if (externalIds.length > 0) return content;
  return { ...content, plant: { ...content.plant, externalIds: [draftExternalId(draftId)] } };
}

export function createDraftService(deps: DraftServiceDeps): DraftService {
  const now = deps.now ?? (() => new Date());
  const newId = deps.newId ?? randomUUID;
  const log = deps.log ?? silentLogger;
  const say = sayIn(deps.t);
  /** Drafts being sent (by owner and id): no second send, edit or deletion meanwhile. */
  const busy = new Set<string>();
  const busyKey = (owner: DraftOwner, draftId: string) =>
    `${owner.environmentId}\n${owner.account}\n${draftId.toLowerCase()}`;

  function find(owner: DraftOwner, draftId: string): Draft {
    const draft = deps.store.read(owner, draftId);
    if (!draft) throw new HostError('invalidArguments', say('host.drafts.missing'));
    return draft;
  }

  function refuseWhileSending(owner: DraftOwner, draftId: string): void {
    if (busy.has(busyKey(owner, draftId))) {
      throw new HostError('invalidArguments', say('host.drafts.sending'));
    }
  }

  return {
    list() {
      return deps.store.list(deps.owner());
    },

    get(draftId) {
      return find(deps.owner(), draftId);
    },

    save({ draftId, content }) {
      const owner = deps.owner();
      const at = now().toISOString();
      if (draftId === undefined) {
        const id = newId();
        const draft: Draft = {
          draftId: id,
          ...owner,
          createdAt: at,
          updatedAt: at,
          content: withIdentity(content, id),
          status: 'notSent',
          sent: { plantUuid: null, devices: {}, sensors: {}, vendors: {} },
          refusals: [],
          lastSentAt: null,
        };
        deps.store.write(owner, draft);
        return draft;
      }
      refuseWhileSending(owner, draftId);
      const previous = find(owner, draftId);
      const next = withIdentity(content, previous.draftId);
      const changed = changesToSent(previous, next);
      if (changed.length > 0) {
        throw new HostError(
          'invalidArguments',
          say('host.drafts.alreadyOnServer', { items: changed.join(', ') }),
        );
      }
      // What was sent stays recorded: the next send goes on from there.
      const draft: Draft = { ...previous, updatedAt: at, content: next };
      draft.status = draftStatus(draft);
      deps.store.write(owner, draft);
      return draft;
    },

    remove(draftId) {
      const owner = deps.owner();
      refuseWhileSending(owner, draftId);
      if (!deps.store.remove(owner, draftId)) {
        throw new HostError('invalidArguments', say('host.drafts.missing'));
      }
    },

    async send(draftId, input = {}) {
      const owner = deps.owner();
      refuseWhileSending(owner, draftId);
      const draft = find(owner, draftId);
      // Checked before anything is sent: signed out (or as someone else), nothing goes.
      deps.clientFor(owner);
      const key = busyKey(owner, draftId);
      busy.add(key);
      try {
        const result = await sendDraft(draft, {
          client: () => deps.clientFor(owner),
          record: (progress) => deps.store.write(owner, progress),
          now,
          secrets: input.secrets,
          t: say,
        });
        log.info('draft sent', {
          environmentId: owner.environmentId,
          draftId: draft.draftId,
          outcome: result.outcome,
          refusals: result.draft.refusals.length,
        });
        return result;
      } finally {
        busy.delete(key);
      }
    },
  };
}
