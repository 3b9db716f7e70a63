// Port of Meilisearch's crates/meilisearch/tests/settings/errors.rs: a value of the wrong type is refused
// with 400 and the setting's own code, the message naming the setting's path on PATCH /settings and no
// path on its sub-route (settings.md §1). The unknown-field list of typoTolerance includes
// disableOnNumbers, as settings.md §1 has it (the test file predates that field).
import { afterAll, beforeAll, describe, it } from 'vitest';
import { call, expectError, uniqueUid } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.dispose();
});

const DOGGO = '`"doggo"`';

/** Each setting's key, sub-route, update verb, a mistyped value, and the type error it gets. */
const CASES: [key: string, route: string, verb: 'PUT' | 'PATCH', value: unknown, error: string][] = [
  ['displayedAttributes', 'displayed-attributes', 'PUT', 'doggo', `expected an array, but found a string: ${DOGGO}`],
  ['searchableAttributes', 'searchable-attributes', 'PUT', 'doggo', `expected an array, but found a string: ${DOGGO}`],
  ['filterableAttributes', 'filterable-attributes', 'PUT', 'doggo', `expected an array, but found a string: ${DOGGO}`],
  ['sortableAttributes', 'sortable-attributes', 'PUT', 'doggo', `expected an array, but found a string: ${DOGGO}`],
  ['rankingRules', 'ranking-rules', 'PUT', 'doggo', `expected an array, but found a string: ${DOGGO}`],
  ['stopWords', 'stop-words', 'PUT', 'doggo', `expected an array, but found a string: ${DOGGO}`],
  ['synonyms', 'synonyms', 'PUT', 'doggo', `expected an object, but found a string: ${DOGGO}`],
  ['distinctAttribute', 'distinct-attribute', 'PUT', ['doggo'], 'expected a string, but found an array: `["doggo"]`'],
  ['typoTolerance', 'typo-tolerance', 'PATCH', 'doggo', `expected an object, but found a string: ${DOGGO}`],
  ['faceting', 'faceting', 'PATCH', 'doggo', `expected an object, but found a string: ${DOGGO}`],
  ['pagination', 'pagination', 'PATCH', 'doggo', `expected an object, but found a string: ${DOGGO}`],
  ['searchCutoffMs', 'search-cutoff-ms', 'PUT', 'doggo', `expected a positive integer, but found a string: ${DOGGO}`],
];

const codeOf = (route: string) => `invalid_settings_${route.replaceAll('-', '_')}`;

describe.each(CASES)('settings_bad_%s', (key, route, verb, value, error) => {
  it(`PATCH /settings names \`.${key}\` in the type error`, async () => {
    const reply = await call(server, 'PATCH', `/indexes/${uniqueUid()}/settings`, { [key]: value });
    expectError(reply, 400, codeOf(route), `Invalid value type at \`.${key}\`: ${error}`);
  });

  it(`${verb} /settings/${route} gives the type error without a path`, async () => {
    // `call` sends a string body as is: encode the value, which may itself be a string
    const reply = await call(server, verb, `/indexes/${uniqueUid()}/settings/${route}`, JSON.stringify(value));
    expectError(reply, 400, codeOf(route), `Invalid value type: ${error}`);
  });
});

describe('settings_bad_typo_tolerance (nested)', () => {
  it('a mistyped minWordSizeForTypos is reported at its full path with the typo tolerance code', async () => {
    const reply = await call(server, 'PATCH', `/indexes/${uniqueUid()}/settings`, { typoTolerance: { minWordSizeForTypos: 'doggo' } });
    expectError(
      reply,
      400,
      'invalid_settings_typo_tolerance',
      `Invalid value type at \`.typoTolerance.minWordSizeForTypos\`: expected an object, but found a string: ${DOGGO}`,
    );
  });

  it('the sub-route body is the typoTolerance object itself, so a typoTolerance key in it is an unknown field', async () => {
    const reply = await call(server, 'PATCH', `/indexes/${uniqueUid()}/settings/typo-tolerance`, { typoTolerance: { minWordSizeForTypos: 'doggo' } });
    expectError(
      reply,
      400,
      'invalid_settings_typo_tolerance',
      'Unknown field `typoTolerance`: expected one of `enabled`, `minWordSizeForTypos`, `disableOnWords`, `disableOnAttributes`, `disableOnNumbers`',
    );
  });
});
