/**
 * Request validation with Meilisearch's ("deserr") error messages: the API route authors use.
 * - `compileBody(schema, fieldCodes, options)`: JSON bodies (ajv schema → typed body or ApiError).
 * - `compileQuery(spec)`: query strings, with the value parsers below.
 * Index uids of path segments are checked with `validateIndexUid` from `indexes/uid.ts`.
 */
export { addSharedSchema, compileBody, type BodyOptions, type FieldCodes, type FieldValidator } from './body.js';
export { describedLike, descriptionOf, type BodyDescription, type QueryDescription } from './described.js';
export { carryBodyText, integralFloatPaths, isSentNumber, sentValueAt } from './sent-values.js';
export { compileQuery, type ParsedQuery, type QueryParam, type QuerySpec } from './query.js';
export {
  QueryValueError,
  parseBoolean,
  parseEnum,
  parseFilterParam,
  parseIndexUid,
  parseList,
  parsePositiveInteger,
  parseSortList,
  parseString,
  parseU32,
  refuseNullFilter,
  starOr,
  starOrList,
  unitFloat,
  type ValueParser,
} from './query-values.js';
export {
  TASK_STATUSES,
  TASK_TYPES,
  parseTaskDate,
  parseTaskStatus,
  parseTaskType,
  type TaskStatus,
  type TaskType,
} from './task-filter-values.js';
