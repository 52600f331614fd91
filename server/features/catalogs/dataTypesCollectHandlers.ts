import type { Routes } from '../../../api/index.ts';
import type { ServerContext } from '../../context.ts';
import { fetchPage, ignoringCase, type SortColumnsOf } from '../../db/lists.ts';
import type { RouteHandlers } from '../../http/routing.ts';
import { toDataTypesCollect } from './catalogRecords.ts';
import { containsAnyIgnoreCase, SORT_BY_CODE } from './catalogSupport.ts';

type DataTypesCollectHandlers = Pick<RouteHandlers, 'listDataTypesCollects'>;

/** The data types catalog is read-only: the server seeds it and nothing changes it. */
const DATA_TYPE_COLUMNS: SortColumnsOf<Routes['listDataTypesCollects']> = {
  dataTypesCollectUuid: 'data_types_collects.data_types_collect_uuid',
  code: ignoringCase('data_types_collects.code'),
  name: ignoringCase('data_types_collects.name'),
  unit: ignoringCase('data_types_collects.unit'),
};

export function dataTypesCollectHandlers({ db }: ServerContext): DataTypesCollectHandlers {
  return {
    listDataTypesCollects: async ({ query }) => {
      let dataTypes = db.selectFrom('data_types_collects').selectAll();
      if (query.search) {
        dataTypes = dataTypes.where(
          containsAnyIgnoreCase(
            ['data_types_collects.name', 'data_types_collects.code', 'data_types_collects.unit'],
            query.search,
          ),
        );
      }
      const { rows, page } = await fetchPage(db, dataTypes, query, {
        sortColumns: DATA_TYPE_COLUMNS,
        defaultSort: SORT_BY_CODE,
        tieBreaker: 'data_types_collects.data_types_collect_uuid',
      });
      return { content: rows.map(toDataTypesCollect), page };
    },
  };
}
