/**
 * Source positions of the Rhai interpreter: a position packs the 1-based line and the 1-based
 * character column of a token into one number; 0 means "no position" (Rhai's `Position::NONE`,
 * printed without the ` (line L, position P)` suffix errors.ts adds).
 */

export type Pos = number;

export const NO_POS: Pos = 0;

const LINE = 0x10000;

export function makePos(line: number, column: number): Pos {
  return line * LINE + column;
}

export function lineOf(pos: Pos): number {
  return Math.floor(pos / LINE);
}

export function columnOf(pos: Pos): number {
  return pos % LINE;
}
