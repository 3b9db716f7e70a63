/**
 * The syntax tree the parser builds and the interpreter walks. Every node keeps the position
 * Rhai reports for it in errors. Property chains are left-nested: `doc.a[0].b` is
 * `dot(index(dot(var doc, a), 0), b)`.
 */
import type { Pos } from './position.js';

export type BinaryOp =
  | '+' | '-' | '*' | '/' | '%' | '**' | '<<' | '>>' | '&' | '|' | '^'
  | '==' | '!=' | '<' | '<=' | '>' | '>=' | 'in' | '!in';

export type Expr =
  | { k: 'int'; value: bigint; pos: Pos }
  | { k: 'float'; value: number; pos: Pos }
  | { k: 'str'; value: string; pos: Pos }
  | { k: 'char'; value: string; pos: Pos }
  | { k: 'bool'; value: boolean; pos: Pos }
  | { k: 'unit'; pos: Pos }
  /** back-tick string: text pieces and interpolated blocks */
  | { k: 'interp'; parts: Expr[]; pos: Pos }
  | { k: 'array'; items: Expr[]; pos: Pos }
  | { k: 'map'; entries: [string, Expr][]; pos: Pos }
  | { k: 'var'; name: string; pos: Pos }
  | { k: 'this'; pos: Pos }
  /** `obj.name`; `safe` for `?.`; `pos` is the dot's, `namePos` the property's */
  | { k: 'dot'; obj: Expr; name: string; safe: boolean; pos: Pos; namePos: Pos }
  /** `obj[index]`; `safe` for `?[` */
  | { k: 'index'; obj: Expr; index: Expr; safe: boolean; pos: Pos }
  | { k: 'method'; obj: Expr; name: string; args: Expr[]; safe: boolean; pos: Pos }
  | { k: 'call'; name: string; args: Expr[]; pos: Pos }
  | { k: 'unary'; op: '-' | '+' | '!'; arg: Expr; pos: Pos }
  | { k: 'binary'; op: BinaryOp; lhs: Expr; rhs: Expr; pos: Pos }
  | { k: 'and' | 'or' | 'coalesce'; lhs: Expr; rhs: Expr; pos: Pos }
  | { k: 'range'; lhs: Expr; rhs: Expr; inclusive: boolean; pos: Pos }
  /** `|params| body`, with the outer variables it captures */
  | { k: 'closure'; fn: FnDef; externals: string[]; pos: Pos }
  /** a block, `if` or `switch` used as a value */
  | { k: 'stmt'; stmt: Stmt; pos: Pos };

export interface SwitchCase {
  /** literal values; empty for range cases */
  values: Expr[];
  range: { start: bigint; end: bigint; inclusive: boolean } | null;
  condition: Expr | null;
  body: Stmt;
}

export type Stmt =
  | { k: 'expr'; expr: Expr; pos: Pos }
  | { k: 'let'; name: string; init: Expr | null; constant: boolean; pos: Pos }
  /** `target = value` or `target op= value` (`op` is the binary operator) */
  | { k: 'assign'; target: Expr; op: BinaryOp | null; value: Expr; pos: Pos }
  | { k: 'block'; body: Stmt[]; pos: Pos }
  | { k: 'if'; cond: Expr; then: Stmt; otherwise: Stmt | null; pos: Pos }
  | { k: 'switch'; subject: Expr; cases: SwitchCase[]; fallback: Stmt | null; pos: Pos }
  /** `while cond {}`; `loop {}` has no condition */
  | { k: 'while'; cond: Expr | null; body: Stmt; pos: Pos }
  | { k: 'do'; body: Stmt; cond: Expr; until: boolean; pos: Pos }
  | { k: 'for'; name: string; counter: string | null; iterable: Expr; body: Stmt; pos: Pos }
  | { k: 'break' | 'continue'; pos: Pos }
  | { k: 'return' | 'throw'; value: Expr | null; pos: Pos }
  | { k: 'try'; body: Stmt; errorVar: string | null; handler: Stmt; pos: Pos };

export interface FnDef {
  /** null for closures */
  name: string | null;
  params: string[];
  body: Stmt;
  pos: Pos;
}

export interface Script {
  statements: Stmt[];
  /** script functions by `name/arity` */
  functions: Map<string, FnDef>;
}

export const fnKey = (name: string, arity: number) => `${name}/${arity}`;
