/**
 * Failure classes the fuzzer finds that other branches are fixing (issue 25's findings). The
 * `npm test` slice tolerates them, nothing else; empty this list as the fixes merge. A class no
 * one is fixing does not belong here: it fails the slice until fixed.
 */
import type { Failure } from './verdict.js';

export interface KnownFailure {
  /** The issue 25 finding, as the fixing branch names it. */
  finding: string;
  matches(failure: Failure): boolean;
}

export const KNOWN_FAILURES: readonly KnownFailure[] = [];

export function knownFailure(failure: Failure): KnownFailure | undefined {
  return KNOWN_FAILURES.find((known) => known.matches(failure));
}
