import type { Routes } from '../../../api/index.ts';
import type { ServerContext } from '../../context.ts';
import { fetchPage, nowIso, type SortColumnsOf } from '../../db/lists.ts';
import type { RouteHandlers } from '../../http/routing.ts';
import { toLoadSignatureRecord, type LoadSignatureRow } from './catalogRecords.ts';
import { assertMayChange, ownerOfNewEntry, visibleTo } from './catalogScope.ts';
import { catalogSortColumns, containsAnyIgnoreCase, SORT_BY_CODE } from './catalogSupport.ts';
import { toLoadSignatures } from './loadSignatureRelationships.ts';
import {
  LOAD_SIGNATURES,
  deleteLoadSignature,
  findLoadSignatureOrThrow,
  insertLoadSignature,
  updateLoadSignature,
} from './loadSignatureStore.ts';

type LoadSignatureHandlers = Pick<
  RouteHandlers,
  | 'createLoadSignature'
  | 'listLoadSignatures'
  | 'getLoadSignature'
  | 'updateLoadSignature'
  | 'deleteLoadSignature'
>;

const LOAD_SIGNATURE_COLUMNS: SortColumnsOf<Routes['listLoadSignatures']> = {
  ...catalogSortColumns(LOAD_SIGNATURES),
  loadSignatureUuid: 'load_signatures.load_signature_uuid',
  deviceTypeUuid: 'load_signatures.device_type_uuid',
  typicalDailyKwh: 'load_signatures.typical_daily_kwh',
};

const scopeOf = (row: LoadSignatureRow) => ({
  code: row.code,
  organizationUuid: row.organization_uuid,
});

export function loadSignatureHandlers({ db, now }: ServerContext): LoadSignatureHandlers {
  return {
    createLoadSignature: async ({ body, user }) =>
      toLoadSignatureRecord(
        await insertLoadSignature(
          db,
          body,
          ownerOfNewEntry(LOAD_SIGNATURES, body, user),
          nowIso(now),
        ),
      ),

    listLoadSignatures: async ({ query, user }) => {
      let signatures = db
        .selectFrom('load_signatures')
        .selectAll()
        .where(visibleTo('load_signatures', user));
      if (query.search) {
        signatures = signatures.where(
          containsAnyIgnoreCase(['load_signatures.name', 'load_signatures.code'], query.search),
        );
      }
      const { rows, page } = await fetchPage(db, signatures, query, {
        sortColumns: LOAD_SIGNATURE_COLUMNS,
        defaultSort: SORT_BY_CODE,
        tieBreaker: 'load_signatures.load_signature_uuid',
      });
      return {
        content: await toLoadSignatures(
          db,
          rows,
          query.includeRelationships,
          user.organizationUuid,
        ),
        page,
      };
    },

    getLoadSignature: async ({ params, query, user }) => {
      const row = await findLoadSignatureOrThrow(db, params.loadSignatureUuid, user);
      const [signature] = await toLoadSignatures(
        db,
        [row],
        query.includeRelationships,
        user.organizationUuid,
      );
      return signature!;
    },

    updateLoadSignature: async ({ params, body, user }) => {
      const current = await findLoadSignatureOrThrow(db, params.loadSignatureUuid, user);
      assertMayChange(LOAD_SIGNATURES, scopeOf(current), user, 'UPDATE');
      return toLoadSignatureRecord(await updateLoadSignature(db, current, body, nowIso(now)));
    },

    deleteLoadSignature: async ({ params, user }) => {
      const current = await findLoadSignatureOrThrow(db, params.loadSignatureUuid, user);
      assertMayChange(LOAD_SIGNATURES, scopeOf(current), user, 'DELETE');
      await deleteLoadSignature(db, current, user.organizationUuid);
      return undefined;
    },
  };
}
