/**
 * `POST /indexes/{indexUid}/fields`: the index's fields sorted by name (indexes/reader.ts: the
 * top-level fields and the nested paths indexing numbered) with what the settings make of each
 * (settings/fields.ts), filtered, then offset-paginated like `GET /indexes`.
 */
import { fieldPasses, type FieldsFilter } from '../../settings/fields.js';
import { defineRoute } from '../route.js';
import { offsetPage } from '../views/offset-page.js';
import { compileBody } from '../../validation/index.js';

export interface ListFieldsBody {
  offset?: number;
  limit?: number;
  filter?: FieldsFilter | null;
}

const flag = { type: ['boolean', 'null'] };

const parseBody = compileBody<ListFieldsBody>(
  {
    type: 'object',
    properties: {
      offset: { type: 'integer', minimum: 0 },
      limit: { type: 'integer', minimum: 0 },
      filter: {
        type: ['object', 'null'],
        properties: {
          attributePatterns: { type: ['array', 'null'], items: { type: 'string' } },
          displayed: flag,
          searchable: flag,
          sortable: flag,
          distinct: flag,
          rankingRule: flag,
          filterable: flag,
        },
        additionalProperties: false,
      },
    },
    additionalProperties: false,
  },
  {
    '.offset': 'invalid_index_offset',
    '.limit': 'invalid_index_limit',
    '.filter': 'invalid_index_fields_filter',
    '.filter.attributePatterns': 'invalid_index_fields_filter_attribute_patterns',
    '.filter.displayed': 'invalid_index_fields_filter_displayed',
    '.filter.searchable': 'invalid_index_fields_filter_searchable',
    '.filter.sortable': 'invalid_index_fields_filter_sortable',
    '.filter.distinct': 'invalid_index_fields_filter_distinct',
    '.filter.rankingRule': 'invalid_index_fields_filter_ranking_rule',
    '.filter.filterable': 'invalid_index_fields_filter_filterable',
  },
);

export const fieldRoutes = [
  defineRoute({
    route: 'POST /indexes/:indexUid/fields',
    body: parseBody,
    handler: (ctx, deps) => offsetPage(deps.indexReader.fields(ctx.params.indexUid!).filter((field) => fieldPasses(field, ctx.body.filter)), ctx.body),
  }),
];
