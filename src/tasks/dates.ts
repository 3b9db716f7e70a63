/**
 * The import path the task and batch views, the dumps and the dump processor still read the clock
 * and print dates and durations through; the module is types/dates.ts.
 */
export { formatDuration, formatRfc3339, nowNs } from '../types/dates.js';
