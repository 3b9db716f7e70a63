/**
 * `POST /render-template` (misc-routes.md §11, experimental `renderRoute`): the body's shape and
 * its deserr errors (`invalid_render_template` inside `.template`, `invalid_render_input` inside
 * `.input`, `bad_request` at the top), then the embedders service renders.
 */
import { renderTemplate, type RenderTemplateQuery } from '../../embedders/render-template.js';
import { nonZeroProblem } from '../../settings/messages.js';
import { indexUidProblem } from '../../types/index-uid.js';
import { defineRoute } from '../route.js';
import { compileBody } from '../../validation/index.js';

const STRING_OR_NULL = { type: ['string', 'null'] };

const parseRenderQuery = compileBody<RenderTemplateQuery>(
  {
    type: 'object',
    properties: {
      template: {
        type: 'object',
        properties: {
          kind: { enum: ['documentTemplate', 'chatDocumentTemplate', 'indexingFragment', 'searchFragment', 'inlineDocumentTemplate', 'inlineFragment'] },
          indexUid: STRING_OR_NULL,
          embedder: STRING_OR_NULL,
          fragment: STRING_OR_NULL,
          inline: {},
          documentTemplateMaxBytes: { type: ['integer', 'null'], minimum: 0 },
        },
        required: ['kind'],
        additionalProperties: false,
      },
      input: {
        type: ['object', 'null'],
        properties: {
          kind: { enum: ['indexDocument', 'inlineDocument', 'inlineSearch'] },
          indexUid: STRING_OR_NULL,
          id: STRING_OR_NULL,
          inline: {},
        },
        required: ['kind'],
        additionalProperties: false,
      },
    },
    required: ['template'],
    additionalProperties: false,
  },
  { '.template': 'invalid_render_template', '.input': 'invalid_render_input' },
  {
    missing: { template: 'bad_request' },
    validators: {
      '.template.indexUid': (uid) => (uid === null ? undefined : indexUidProblem(uid)),
      '.input.indexUid': (uid) => (uid === null ? undefined : indexUidProblem(uid)),
      '.template.documentTemplateMaxBytes': nonZeroProblem,
    },
  },
);

export const renderTemplateRoutes = [
  defineRoute({
    route: 'POST /render-template',
    body: parseRenderQuery,
    handler: (ctx, deps) =>
      renderTemplate(ctx.body, {
        open: (uid) => deps.indexReader.open(uid),
        require: (name, action, words, link) => deps.features.require(name, action, words, link),
        canSeeIndex: (uid) => ctx.caller.canSeeIndex(uid),
      }),
  }),
];
