/**
 * The package's entry point, `import { Quarry } from 'quarry'` (package.json `exports`): the
 * in-process library and its public types.
 */
export { Quarry, type IndexObject, type IndexOptions, type MultiSearchParams } from './quarry.js';
export {
  Index,
  type DocumentOptions,
  type DocumentsDeletionQuery,
  type DocumentsQuery,
  type RecordAny,
  type ResourceResults,
  type SearchForFacetValuesParams,
  type SearchForFacetValuesResponse,
  type SearchParams,
  type SearchResponse,
  type Settings,
  type TaskEnqueueOptions,
} from './index-handle.js';
export { TaskClient, type EnqueuedTask, type EnqueuedTaskPromise, type Task, type TaskUidOrEnqueuedTask, type TasksQuery, type TasksResults, type WaitOptions } from './tasks.js';
export { QuarryApiError, QuarryError, QuarryTaskTimeOutError, type ErrorBody } from './errors.js';
export { QuarryOptionError, type QuarryOptions } from './options.js';
