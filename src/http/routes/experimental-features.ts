/** `GET` and `PATCH /experimental-features`: synchronous, no task. */
import { FEATURE_NAMES, type FeatureName } from '../../types/features.js';
import { defineRoute } from '../route.js';
import { compileBody } from '../../validation/index.js';

type FeaturePatch = Partial<Record<FeatureName, boolean | null>>;

const parsePatch = compileBody<FeaturePatch>({
  type: 'object',
  properties: Object.fromEntries(FEATURE_NAMES.map((name) => [name, { type: ['boolean', 'null'] }])),
  additionalProperties: false,
});

export const experimentalFeatureRoutes = [
  defineRoute({
    route: 'GET /experimental-features',
    handler: (_ctx, deps) => deps.features.all(),
  }),
  defineRoute({
    route: 'PATCH /experimental-features',
    body: parsePatch,
    handler: (ctx, deps) => deps.features.update(ctx.body),
  }),
];
