/**
 * The Rhai parser (rhai `parser.rs`): tokens → `Script`. It follows Rhai's grammar, operator
 * precedences, statement/semicolon rules, compile-time checks and error texts, including the
 * expression-depth limit (counted the way Rhai counts nesting) and the function-count limit.
 *
 * Like Rhai it tracks declared variables per function context, to refuse assignments to
 * constants and to find the outer variables a closure captures.
 */
import { fnKey, type BinaryOp, type Expr, type FnDef, type Script, type Stmt, type SwitchCase } from './ast.js';
import { RhaiParseError } from './errors.js';
import type { Pos } from './position.js';
import { KEYWORD_FUNCTIONS, KEYWORD_METHODS, isValidIdentifier, tokenize, type Token } from './lexer.js';

export interface CompileOptions {
  /** maximum expression nesting at global level (Rhai's `max_expr_depth`); 0 = unlimited */
  maxExprDepth: number;
  /** maximum expression nesting inside functions and closures; 0 = unlimited */
  maxFunctionExprDepth: number;
  /** maximum number of script functions, closures included; 0 = unlimited */
  maxFunctions: number;
  /** maximum items of an array literal; 0 = unlimited */
  maxArraySize: number;
  /** maximum properties of an object map literal; 0 = unlimited */
  maxMapSize: number;
}

/** Rhai's `Engine::new()` limits (release build), as Meilisearch's route compiles with. */
export const DEFAULT_COMPILE_OPTIONS: CompileOptions = {
  maxExprDepth: 64,
  maxFunctionExprDepth: 32,
  maxFunctions: 0,
  maxArraySize: 0,
  maxMapSize: 0,
};

interface Settings {
  level: number;
  isGlobal: boolean;
  isFunctionScope: boolean;
  isBreakable: boolean;
}

/** Variables declared in one function context, and (for closures) the outer ones it uses. */
interface ParseState {
  stack: { name: string; constant: boolean }[];
  externals: string[];
  maxDepth: number;
}

const PRECEDENCE: Record<string, number> = {
  '||': 30, '^': 30, '|': 30,
  '&&': 60, '&': 60,
  '==': 90, '!=': 90,
  in: 110, '!in': 110,
  '<': 130, '<=': 130, '>': 130, '>=': 130,
  '??': 135,
  '..': 140, '..=': 140,
  '+': 150, '-': 150,
  '*': 180, '/': 180, '%': 180,
  '**': 190,
  '<<': 210, '>>': 210,
};

const OP_ASSIGN: Record<string, BinaryOp> = {
  '+=': '+', '-=': '-', '*=': '*', '/=': '/', '%=': '%', '**=': '**',
  '<<=': '<<', '>>=': '>>', '&=': '&', '|=': '|', '^=': '^',
};

const up = (s: Settings): Settings => ({ ...s, level: s.level + 1 });

const err = (description: string, pos: Pos) => new RhaiParseError(description, pos);
const missing = (token: string, what: string, pos: Pos) => err(`Expecting '${token}' ${what}`, pos);

/** The position where an expression starts (Rhai's `start_position`). */
function startOf(e: Expr): Pos {
  switch (e.k) {
    case 'binary':
    case 'and':
    case 'or':
    case 'coalesce':
    case 'range':
      return startOf(e.lhs);
    case 'dot':
    case 'index':
    case 'method':
      return startOf(e.obj);
    default:
      return e.pos;
  }
}

function isConstantExpr(e: Expr): boolean {
  switch (e.k) {
    case 'int':
    case 'float':
    case 'str':
    case 'char':
    case 'bool':
    case 'unit':
      return true;
    case 'array':
      return e.items.every(isConstantExpr);
    case 'map':
      return e.entries.every(([, v]) => isConstantExpr(v));
    default:
      return false;
  }
}

/** Rhai's `ensure_bool_expr`: literals that can never be a condition. */
function ensureBool(e: Expr): Expr {
  const kind = literalKind(e, true);
  if (kind !== null) throw err(`Expecting a boolean expression, not ${kind}`, e.pos);
  return e;
}

function ensureIterable(e: Expr): Expr {
  const kind = e.k === 'bool' ? 'a boolean' : e.k === 'array' ? null : literalKind(e, false);
  if (kind !== null) throw err(`Expecting an iterable value, not ${kind}`, e.pos);
  return e;
}

function literalKind(e: Expr, arrays: boolean): string | null {
  switch (e.k) {
    case 'unit':
      return '()';
    case 'int':
      return 'a number';
    case 'float':
      return 'a floating-point number';
    case 'char':
      return 'a character';
    case 'str':
    case 'interp':
      return 'a string';
    case 'array':
      return arrays ? 'an array' : null;
    case 'map':
      return 'an object map';
    default:
      return null;
  }
}

function selfTerminated(s: Stmt): boolean {
  return s.k === 'if' || s.k === 'switch' || s.k === 'while' || s.k === 'for' || s.k === 'block' || s.k === 'try';
}

class Parser {
  private tokens: Token[];
  private i = 0;
  private state: ParseState;
  private readonly functions = new Map<string, FnDef>();
  /** functions and closures defined so far (Rhai counts both in its function library) */
  private libSize = 0;
  /** inside a switch case list, `|` separates alternatives instead of being an operator */
  private pipeEndsExpr = false;

  constructor(
    tokens: Token[],
    private readonly options: CompileOptions,
  ) {
    this.tokens = tokens;
    this.state = { stack: [], externals: [], maxDepth: options.maxExprDepth };
  }

  private peek(): Token {
    const token = this.tokens[this.i]!;
    if (token.t === 'error') throw err(token.message, token.pos);
    return token;
  }

  private next(): Token {
    const token = this.peek();
    if (token.t !== 'eof') this.i++;
    return token;
  }

  private is(value: string): boolean {
    const token = this.peek();
    return token.t === 'sym' && token.value === value;
  }

  private match(value: string): boolean {
    if (!this.is(value)) return false;
    this.i++;
    return true;
  }

  private checkLevel(s: Settings): void {
    if (this.state.maxDepth > 0 && s.level > this.state.maxDepth) throw err('Expression exceeds maximum complexity', this.peek().pos);
  }

  private precedence(token: Token): number {
    if (token.t === 'reserved' && !isValidIdentifier(token.value)) throw err(`Unknown operator: '${token.value}'`, token.pos);
    if (token.t !== 'sym') return 0;
    if (token.value === '|' && this.pipeEndsExpr) return 0;
    return PRECEDENCE[token.value] ?? 0;
  }

  /** Rhai's `access_var`: a name not declared in this function context is captured. */
  private accessVar(name: string): void {
    const { stack, externals } = this.state;
    if (!stack.some((v) => v.name === name) && !externals.includes(name)) externals.push(name);
  }

  private findVar(name: string): { name: string; constant: boolean } | undefined {
    const { stack } = this.state;
    for (let i = stack.length - 1; i >= 0; i--) if (stack[i]!.name === name) return stack[i];
    return undefined;
  }

  parseScript(): Script {
    const statements: Stmt[] = [];
    while (this.peek().t !== 'eof') {
      const settings: Settings = { level: 0, isGlobal: true, isFunctionScope: false, isBreakable: false };
      const stmt = this.parseStmt(settings);
      if (stmt === null) continue;
      statements.push(stmt);
      const token = this.peek();
      if (token.t === 'eof') break;
      if (token.t === 'sym' && token.value === ';') {
        if (!selfTerminated(stmt)) this.i++;
        continue;
      }
      if (!selfTerminated(stmt)) throw missing(';', 'to terminate this statement', token.pos);
    }
    return { statements, functions: this.functions };
  }

  /** A statement, or null for an empty one (`;`, a function definition, the end). */
  private parseStmt(s: Settings): Stmt | null {
    const token = this.peek();
    if (token.t === 'eof') return null;
    this.checkLevel(s);
    if (token.t !== 'sym') return this.parseExprStmt(up(s));
    switch (token.value) {
      case ';':
        this.i++;
        return null;
      case '{':
        return this.parseBlock(up(s));
      case 'fn':
      case 'private':
        if (!s.isGlobal) throw err('Function definitions must be at global level and cannot be inside a block or another function', token.pos);
        this.parseFnDef();
        return null;
      case 'if':
        return this.parseIf(up(s));
      case 'switch':
        return this.parseSwitch(up(s));
      case 'while':
      case 'loop':
        return this.parseWhile(up(s));
      case 'do':
        return this.parseDo(up(s));
      case 'for':
        return this.parseFor(up(s));
      case 'continue':
      case 'break':
        if (!s.isBreakable) throw err('Break statement should only be used inside a loop', token.pos);
        this.i++;
        return { k: token.value as 'break' | 'continue', pos: token.pos };
      case 'return':
      case 'throw': {
        this.i++;
        const after = this.peek();
        const bare =
          after.t === 'eof' ||
          (after.t === 'sym' && after.value === ';') ||
          (after.t === 'sym' && after.value === '}' && !s.isGlobal);
        return { k: token.value as 'return' | 'throw', value: bare ? null : this.parseExpr(up(s)), pos: token.pos };
      }
      case 'try':
        return this.parseTry(up(s));
      case 'let':
      case 'const':
        return this.parseLet(up(s), token.value === 'const');
      default:
        return this.parseExprStmt(up(s));
    }
  }

  private parseBlock(s: Settings): Stmt {
    this.checkLevel(s);
    const open = this.next();
    if (!(open.t === 'sym' && open.value === '{')) throw missing('{', 'to start a statement block', open.pos);
    const body: Stmt[] = [];
    const entry = this.state.stack.length;
    const inner: Settings = { ...s, isGlobal: false };
    for (;;) {
      const token = this.peek();
      if (token.t === 'sym' && token.value === '}') {
        this.i++;
        break;
      }
      if (token.t === 'eof') throw missing('}', 'to terminate this block', token.pos);
      const stmt = this.parseStmt(up(inner));
      if (stmt === null) continue;
      body.push(stmt);
      const after = this.peek();
      if (after.t === 'sym' && after.value === '}') {
        this.i++;
        break;
      }
      if (after.t === 'sym' && after.value === ';') {
        this.i++;
        continue;
      }
      if (!selfTerminated(stmt)) throw missing(';', 'to terminate this statement', after.pos);
    }
    this.state.stack.length = entry;
    return { k: 'block', body, pos: open.pos };
  }

  private parseExprStmt(s: Settings): Stmt {
    const expr = this.parseExpr(up(s));
    const token = this.peek();
    if (token.t !== 'sym' || (token.value !== '=' && OP_ASSIGN[token.value] === undefined)) return { k: 'expr', expr, pos: expr.pos };
    this.i++;
    const value = this.parseExpr(up(up(s)));
    this.checkAssignable(expr, token.pos);
    return { k: 'assign', target: expr, op: token.value === '=' ? null : OP_ASSIGN[token.value]!, value, pos: token.pos };
  }

  /** Rhai's `make_assignment_stmt` checks. */
  private checkAssignable(lhs: Expr, opPos: Pos): void {
    if (isConstantExpr(lhs)) throw err('Cannot assign to a constant value', lhs.pos);
    if (lhs.k === 'var') {
      if (this.findVar(lhs.name)?.constant === true) throw err(`Cannot assign to constant ${lhs.name}`, lhs.pos);
      return;
    }
    if (lhs.k === 'this') return;
    if (lhs.k === 'dot' || lhs.k === 'index') {
      let node: Expr = lhs.obj;
      while (node.k === 'dot' || node.k === 'index') node = node.obj;
      if (node.k === 'method') throw err('Expression cannot be assigned to', node.pos);
      if (node.k !== 'var' && node.k !== 'this') throw err('Expression cannot be assigned to', node.pos);
      return;
    }
    if (lhs.k === 'and' || lhs.k === 'or') throw err("Possibly a typo of '=='?", opPos);
    throw err('Expression cannot be assigned to', lhs.pos);
  }

  private parseExpr(s: Settings): Expr {
    this.checkLevel(s);
    const lhs = this.parseUnary(up(s));
    return this.parseBinary(1, lhs, up(s));
  }

  private parseBinary(parent: number, lhs: Expr, settings: Settings): Expr {
    let s = settings;
    this.checkLevel(s);
    let root = lhs;
    for (;;) {
      const opToken = this.peek();
      const precedence = this.precedence(opToken);
      const op = opToken.t === 'sym' ? opToken.value : '';
      const bindRight = op === '**';
      if (precedence < parent || (precedence === parent && !bindRight)) return root;
      this.i++;
      let rhs = this.parseUnary(s);
      const nextPrecedence = this.precedence(this.peek());
      if ((precedence === nextPrecedence && bindRight) || precedence < nextPrecedence) {
        rhs = this.parseBinary(precedence, rhs, s);
      }
      s = up(s);
      this.checkLevel(s);
      root = this.makeBinary(op, root, rhs, opToken.pos);
    }
  }

  private makeBinary(op: string, lhs: Expr, rhs: Expr, pos: Pos): Expr {
    switch (op) {
      case '||':
        return { k: 'or', lhs: ensureBool(lhs), rhs: ensureBool(rhs), pos };
      case '&&':
        return { k: 'and', lhs: ensureBool(lhs), rhs: ensureBool(rhs), pos };
      case '??':
        return { k: 'coalesce', lhs, rhs, pos };
      case '..':
      case '..=':
        return { k: 'range', lhs, rhs, inclusive: op === '..=', pos };
      case '==':
      case '!=':
      case '<':
      case '<=':
      case '>':
      case '>=':
        // Rhai reports comparison errors at the start of the left operand.
        return { k: 'binary', op, lhs, rhs, pos: startOf(lhs) };
      default:
        return { k: 'binary', op: op as BinaryOp, lhs, rhs, pos };
    }
  }

  private parseUnary(s: Settings): Expr {
    this.checkLevel(s);
    const token = this.peek();
    if (token.t === 'sym' && (token.value === '-' || token.value === '+')) {
      this.i++;
      const arg = this.parseUnary(up(s));
      if (token.value === '+') return arg.k === 'int' || arg.k === 'float' ? arg : { k: 'unary', op: '+', arg, pos: token.pos };
      if (arg.k === 'int') {
        const negated = -arg.value;
        return BigInt.asIntN(64, negated) === negated
          ? { k: 'int', value: negated, pos: token.pos }
          : { k: 'float', value: -Number(arg.value), pos: token.pos };
      }
      if (arg.k === 'float') return { k: 'float', value: -arg.value, pos: token.pos };
      return { k: 'unary', op: '-', arg, pos: token.pos };
    }
    if (token.t === 'sym' && token.value === '!') {
      this.i++;
      return { k: 'unary', op: '!', arg: this.parseUnary(up(s)), pos: token.pos };
    }
    if (token.t === 'eof') throw err('Script is incomplete', token.pos);
    return this.parsePrimary(up(s));
  }

  private parsePrimary(settings: Settings): Expr {
    const s = settings;
    this.checkLevel(s);
    const token = this.peek();
    let root: Expr;
    switch (token.t) {
      case 'eof':
        throw err('Script is incomplete', token.pos);
      case 'int':
      case 'float':
      case 'str':
      case 'char':
        this.i++;
        root = { k: token.t, value: token.value, pos: token.pos } as Expr;
        break;
      case 'template':
        this.i++;
        root = this.parseTemplate(token, s);
        break;
      case 'ident':
        this.i++;
        if (this.isCallStart()) {
          root = { k: 'call', name: token.value, args: this.parseArgs(token.value, s), pos: token.pos };
        } else {
          this.accessVar(token.value);
          root = { k: 'var', name: token.value, pos: token.pos };
        }
        break;
      case 'reserved':
        this.i++;
        root = this.parseReserved(token, s);
        break;
      case 'sym':
        root = this.parseSymbolPrimary(token, s);
        break;
      default:
        throw err(`Unexpected '${token.t}'`, token.pos);
    }
    return this.parsePostfix(root, s);
  }

  private parseReserved(token: Token & { t: 'reserved' }, s: Settings): Expr {
    if (this.isCallStart() && KEYWORD_FUNCTIONS.has(token.value)) {
      return { k: 'call', name: token.value, args: this.parseArgs(token.value, s), pos: token.pos };
    }
    if (token.value === 'this') {
      if (s.isFunctionScope) return { k: 'this', pos: token.pos };
      throw err("'this' can only be used in functions", token.pos);
    }
    if (isValidIdentifier(token.value)) throw err(`'${token.value}' is a reserved keyword`, token.pos);
    throw err(`Unexpected '${token.value}'`, token.pos);
  }

  private parseSymbolPrimary(token: Token & { t: 'sym' }, s: Settings): Expr {
    switch (token.value) {
      case 'true':
      case 'false':
        this.i++;
        return { k: 'bool', value: token.value === 'true', pos: token.pos };
      case '()':
        this.i++;
        return { k: 'unit', pos: token.pos };
      case '{':
        return { k: 'stmt', stmt: this.parseBlock(up(s)), pos: token.pos };
      case '(': {
        this.i++;
        if (this.match(')')) return { k: 'unit', pos: token.pos };
        const inner = this.parseExpr(up(s));
        const close = this.next();
        if (!(close.t === 'sym' && close.value === ')')) throw missing(')', 'for a matching ( in this expression', close.pos);
        return inner;
      }
      case 'if':
        return { k: 'stmt', stmt: this.parseIf(up(s)), pos: token.pos };
      case 'switch':
        return { k: 'stmt', stmt: this.parseSwitch(up(s)), pos: token.pos };
      case '|':
      case '||':
        return this.parseClosure(token);
      case '[':
        return this.parseArray(up(s));
      case '#{':
        return this.parseMap(up(s));
      default:
        throw err(`Unexpected '${token.value}'`, token.pos);
    }
  }

  private parsePostfix(expr: Expr, s: Settings): Expr {
    let root = expr;
    for (;;) {
      const token = this.peek();
      if (token.t !== 'sym') return root;
      if (token.value === '[' || token.value === '?[') {
        this.i++;
        root = this.parseIndex(root, token, up(s));
      } else if (token.value === '.' || token.value === '?.') {
        this.i++;
        root = this.parseDot(root, token, s);
      } else {
        return root;
      }
    }
  }

  private parseIndex(obj: Expr, open: Token, s: Settings): Expr {
    this.checkLevel(s);
    const index = this.parseExpr(up(s));
    const notInt: Partial<Record<Expr['k'], string>> = {
      float: 'a float', char: 'a character', unit: '()', bool: 'a boolean', and: 'a boolean', or: 'a boolean',
    };
    const kind = notInt[index.k];
    if (kind !== undefined) throw err(`Array access expects integer index, not ${kind}`, index.pos);
    const close = this.peek();
    if (!(close.t === 'sym' && close.value === ']')) throw missing(']', 'for a matching [ in this index expression', close.pos);
    this.i++;
    return { k: 'index', obj, index, safe: open.t === 'sym' && open.value === '?[', pos: open.pos };
  }

  private parseDot(obj: Expr, dot: Token & { t: 'sym' }, s: Settings): Expr {
    const safe = dot.value === '?.';
    const token = this.peek();
    const isKeywordFn = token.t === 'reserved' && KEYWORD_FUNCTIONS.has(token.value);
    if (token.t !== 'ident' && !isKeywordFn) throw err('Expecting name of a property', token.pos);
    const name = (token as { value: string }).value;
    this.i++;
    if (this.isCallStart()) {
      if (isKeywordFn && !KEYWORD_METHODS.has(name)) {
        throw err(`'${name}' should not be called in method style. Try ${name}(...);`, token.pos);
      }
      return { k: 'method', obj, name, args: this.parseArgs(name, up(s)), safe, pos: token.pos };
    }
    if (isKeywordFn) throw err(`'${name}' is a reserved keyword`, token.pos);
    return { k: 'dot', obj, name, safe, pos: dot.pos, namePos: token.pos };
  }

  /** `(` or `()` (one token when nothing is between the parentheses). */
  private isCallStart(): boolean {
    return this.is('(') || this.is('()');
  }

  /** Call arguments from `(` (or `()`) through the closing `)`. */
  private parseArgs(name: string, settings: Settings): Expr[] {
    const args: Expr[] = [];
    if (this.match('()')) return args;
    this.i++;
    if (this.match(')')) return args;
    const s = up(settings);
    for (;;) {
      if (!this.is(')')) args.push(this.parseExpr(s));
      const token = this.peek();
      if (token.t === 'sym' && token.value === ')') {
        this.i++;
        return args;
      }
      if (token.t === 'sym' && token.value === ',') {
        this.i++;
        continue;
      }
      if (token.t === 'eof') throw missing(')', `to close the arguments list of this function call '${name}'`, token.pos);
      throw missing(',', `to separate the arguments to function call '${name}'`, token.pos);
    }
  }

  private parseArray(s: Settings): Expr {
    this.checkLevel(s);
    const open = this.next();
    const items: Expr[] = [];
    for (;;) {
      const max = this.options.maxArraySize;
      if (max > 0 && items.length >= max) throw err(`Size of array literal exceeds the maximum limit (${max})`, this.peek().pos);
      const token = this.peek();
      if (token.t === 'sym' && token.value === ']') {
        this.i++;
        break;
      }
      if (token.t === 'eof') throw missing(']', 'to end this array literal', token.pos);
      items.push(this.parseExpr(up(s)));
      const after = this.peek();
      if (after.t === 'sym' && after.value === ',') this.i++;
      else if (after.t === 'sym' && after.value === ']') continue;
      else if (after.t === 'eof') throw missing(']', 'to end this array literal', after.pos);
      else throw missing(',', 'to separate the items of this array literal', after.pos);
    }
    return { k: 'array', items, pos: open.pos };
  }

  private parseMap(s: Settings): Expr {
    this.checkLevel(s);
    const open = this.next();
    const entries: [string, Expr][] = [];
    const end = 'to end this object map literal';
    for (;;) {
      const token = this.peek();
      if (token.t === 'sym' && token.value === '}') {
        this.i++;
        break;
      }
      if (token.t === 'eof') throw missing('}', end, token.pos);
      this.i++;
      let name: string;
      if (token.t === 'ident' || token.t === 'str') {
        name = token.value;
        if (entries.some(([key]) => key === name)) throw err(`Duplicated property for object map literal: ${name}`, token.pos);
      } else if (token.t === 'reserved' && isValidIdentifier(token.value)) {
        throw err(`'${token.value}' is a reserved keyword`, token.pos);
      } else if (entries.length === 0 && token.t !== 'template') {
        throw missing('}', end, token.pos);
      } else {
        throw err('Expecting name of a property', token.pos);
      }
      const colon = this.next();
      if (!(colon.t === 'sym' && colon.value === ':')) {
        throw missing(':', `to follow the property '${name}' in this object map literal`, colon.pos);
      }
      const max = this.options.maxMapSize;
      if (max > 0 && entries.length >= max) {
        throw err(`Number of properties in object map literal exceeds the maximum limit (${max})`, this.peek().pos);
      }
      entries.push([name, this.parseExpr(up(s))]);
      const after = this.peek();
      if (after.t === 'sym' && after.value === ',') this.i++;
      else if (after.t === 'sym' && after.value === '}') continue;
      else if (after.t === 'ident') throw missing(',', 'to separate the items of this object map literal', after.pos);
      else throw missing('}', end, after.pos);
    }
    return { k: 'map', entries, pos: open.pos };
  }

  /** A back-tick string: each `${...}` is parsed as a block from its own tokens. */
  private parseTemplate(token: Token & { t: 'template' }, s: Settings): Expr {
    const parts: Expr[] = [];
    for (const part of token.parts) {
      if (typeof part === 'string') {
        parts.push({ k: 'str', value: part, pos: token.pos });
        continue;
      }
      const [tokens, i] = [this.tokens, this.i];
      this.tokens = part;
      this.i = 0;
      try {
        const block = this.parseBlock(up(s));
        parts.push({ k: 'stmt', stmt: block, pos: block.pos });
      } finally {
        this.tokens = tokens;
        this.i = i;
      }
    }
    return { k: 'interp', parts, pos: token.pos };
  }

  private parseIf(s: Settings): Stmt {
    this.checkLevel(s);
    const token = this.next();
    const cond = this.parseCondition(s);
    const then = this.parseBlock(up(s));
    let otherwise: Stmt | null = null;
    if (this.match('else')) otherwise = this.is('if') ? this.parseIf(up(s)) : this.parseBlock(up(s));
    return { k: 'if', cond, then, otherwise, pos: token.pos };
  }

  /** A loop or `if` condition: not a block, a boolean expression, not followed by `=`. */
  private parseCondition(s: Settings): Expr {
    if (this.is('{')) throw err('Expecting a boolean expression', this.peek().pos);
    const cond = ensureBool(this.parseExpr(up(s)));
    if (this.is('=')) throw err("Possibly a typo of '=='?", this.peek().pos);
    return cond;
  }

  private parseSwitch(s: Settings): Stmt {
    this.checkLevel(s);
    const token = this.next();
    const subject = this.parseExpr(up(s));
    const open = this.next();
    if (!(open.t === 'sym' && open.value === '{')) throw missing('{', 'to start a switch block', open.pos);
    const cases: SwitchCase[] = [];
    let fallback: Stmt | null = null;
    let fallbackPos: Pos = 0;
    const end = 'to end this switch block';
    for (;;) {
      const next = this.peek();
      if (next.t === 'sym' && next.value === '}') {
        this.i++;
        break;
      }
      if (next.t === 'eof') throw missing('}', end, next.pos);
      if (fallback !== null) throw err('Default switch case must be the last', fallbackPos);
      let entry: Omit<SwitchCase, 'body'> | null = null;
      if (next.t === 'sym' && next.value === '_') {
        this.i++;
        fallbackPos = next.pos;
        if (this.is('if')) throw err('This switch case cannot have a condition', this.peek().pos);
      } else {
        entry = this.parseSwitchCase(up(s));
      }
      const arrow = this.next();
      if (!(arrow.t === 'sym' && arrow.value === '=>')) throw missing('=>', 'in this switch case', arrow.pos);
      const body = this.parseStmt(up(s)) ?? { k: 'block', body: [], pos: arrow.pos };
      if (entry === null) fallback = body;
      else cases.push({ ...entry, body });
      const after = this.peek();
      if (after.t === 'sym' && after.value === ',') this.i++;
      else if (after.t === 'sym' && after.value === '}') continue;
      else if (after.t === 'eof') throw missing('}', end, after.pos);
      else if (!selfTerminated(body)) throw missing(',', 'to separate the items in this switch block', after.pos);
    }
    return { k: 'switch', subject, cases, fallback, pos: token.pos };
  }

  /** `a | b if cond` or a range `1..10`: literal values only. */
  private parseSwitchCase(s: Settings): Omit<SwitchCase, 'body'> {
    const values: Expr[] = [];
    let range: SwitchCase['range'] = null;
    const previous = this.pipeEndsExpr;
    this.pipeEndsExpr = true;
    try {
      do {
        const value = this.parseExpr(s);
        if (value.k === 'range' && value.lhs.k === 'int' && value.rhs.k === 'int' && values.length === 0 && range === null) {
          range = { start: value.lhs.value, end: value.rhs.value, inclusive: value.inclusive };
        } else if (isConstantExpr(value) && range === null) {
          values.push(value);
        } else {
          throw err('Expecting a literal expression', value.pos);
        }
      } while (this.match('|'));
    } finally {
      this.pipeEndsExpr = previous;
    }
    const condition = this.match('if') ? this.parseExpr(s) : null;
    return { values, range, condition };
  }

  private parseWhile(s: Settings): Stmt {
    this.checkLevel(s);
    const token = this.next();
    const cond = token.t === 'sym' && token.value === 'while' ? this.parseCondition(s) : null;
    const body = this.parseBlock(up({ ...s, isBreakable: true }));
    return { k: 'while', cond, body, pos: token.pos };
  }

  private parseDo(s: Settings): Stmt {
    this.checkLevel(s);
    const token = this.next();
    const body = this.parseBlock(up({ ...s, isBreakable: true }));
    const kind = this.next();
    if (!(kind.t === 'sym' && (kind.value === 'while' || kind.value === 'until'))) throw missing('while', 'for the do statement', kind.pos);
    const cond = this.parseCondition(s);
    return { k: 'do', body, cond, until: kind.value === 'until', pos: token.pos };
  }

  private parseVarName(): { name: string; pos: Pos } {
    const token = this.next();
    if (token.t === 'ident') return { name: token.value, pos: token.pos };
    if (token.t === 'reserved' && isValidIdentifier(token.value)) throw err(`'${token.value}' is a reserved keyword`, token.pos);
    throw err('Expecting name of a variable', token.pos);
  }

  private parseFor(s: Settings): Stmt {
    this.checkLevel(s);
    const token = this.next();
    let name: string;
    let counter: string | null = null;
    if (this.match('(')) {
      name = this.parseVarName().name;
      if (!this.is(',')) throw missing(',', 'after the iteration variable name', this.peek().pos);
      this.i++;
      const second = this.parseVarName();
      if (second.name === name) throw err(`Duplicated variable name: ${name}`, second.pos);
      counter = second.name;
      if (!this.is(')')) throw missing(')', 'to close the iteration variable', this.peek().pos);
      this.i++;
    } else {
      name = this.parseVarName().name;
    }
    const inToken = this.next();
    if (!(inToken.t === 'sym' && inToken.value === 'in')) throw missing('in', 'after the iteration variable', inToken.pos);
    if (this.is('{')) throw err('Expecting a boolean expression', this.peek().pos);
    const iterable = ensureIterable(this.parseExpr(up(s)));
    const entry = this.state.stack.length;
    if (counter !== null) this.state.stack.push({ name: counter, constant: false });
    this.state.stack.push({ name, constant: false });
    const body = this.parseBlock(up({ ...s, isBreakable: true }));
    this.state.stack.length = entry;
    return { k: 'for', name, counter, iterable, body, pos: token.pos };
  }

  private parseLet(s: Settings, constant: boolean): Stmt {
    this.checkLevel(s);
    const token = this.next();
    const { name } = this.parseVarName();
    const init = this.match('=') ? this.parseExpr(up(s)) : null;
    this.state.stack.push({ name, constant });
    return { k: 'let', name, init, constant, pos: token.pos };
  }

  private parseTry(s: Settings): Stmt {
    this.checkLevel(s);
    const token = this.next();
    const body = this.parseBlock(up(s));
    if (!this.is('catch')) throw missing('catch', "for the 'try' statement", this.peek().pos);
    this.i++;
    let errorVar: string | null = null;
    if (this.match('(')) {
      errorVar = this.parseVarName().name;
      if (!this.is(')')) throw missing(')', 'to enclose the catch variable', this.peek().pos);
      this.i++;
      this.state.stack.push({ name: errorVar, constant: false });
    }
    const handler = this.parseBlock(up(s));
    if (errorVar !== null) this.state.stack.pop();
    return { k: 'try', body, errorVar, handler, pos: token.pos };
  }

  /** Runs `parse` in a fresh function context (own variables, function depth limit). */
  private inFunctionContext<T>(parse: () => T): { result: T; externals: string[] } {
    const outer = this.state;
    this.state = { stack: [], externals: [], maxDepth: this.options.maxFunctionExprDepth };
    try {
      const result = parse();
      return { result, externals: this.state.externals };
    } finally {
      this.state = outer;
    }
  }

  private parseFnDef(): void {
    if (this.match('private') && !this.is('fn')) throw missing('fn', "following 'private'", this.peek().pos);
    const fnToken = this.next();
    const max = this.options.maxFunctions;
    if (max > 0 && this.libSize >= max) throw err('Number of functions defined exceeds maximum limit', fnToken.pos);
    const nameToken = this.next();
    if (nameToken.t === 'reserved') throw err(`'${nameToken.value}' is a reserved keyword`, nameToken.pos);
    if (nameToken.t !== 'ident') throw err('Expecting function name in function declaration', nameToken.pos);
    const name = nameToken.value;
    if (!this.isCallStart()) throw err(`Expecting parameters for function ${name}`, this.peek().pos);
    const noParams = this.match('()');
    if (!noParams) this.i++;
    const { result: def } = this.inFunctionContext(() => {
      const params: string[] = [];
      if (!noParams && !this.match(')')) {
        for (;;) {
          const param = this.next();
          if (param.t === 'sym' && param.value === ')') break;
          if (param.t !== 'ident') throw missing(')', `to close the parameters list of function '${name}'`, param.pos);
          if (params.includes(param.value)) throw err(`Duplicated parameter ${param.value} for function ${name}`, param.pos);
          params.push(param.value);
          this.state.stack.push({ name: param.value, constant: false });
          const sep = this.next();
          if (sep.t === 'sym' && sep.value === ')') break;
          if (!(sep.t === 'sym' && sep.value === ',')) throw missing(',', `to separate the parameters of function '${name}'`, sep.pos);
        }
      }
      if (!this.is('{')) throw err(`Expecting body statement block for function ${name}`, this.peek().pos);
      const settings: Settings = { level: 0, isGlobal: false, isFunctionScope: true, isBreakable: false };
      const body = this.parseBlock(up(settings));
      return { name, params, body, pos: fnToken.pos } satisfies FnDef;
    });
    const key = fnKey(name, def.params.length);
    if (this.functions.has(key)) {
      const n = def.params.length;
      const count = n === 0 ? 'no parameters' : n === 1 ? '1 parameter' : `${n} parameters`;
      throw err(`Function ${name} with ${count} already exists`, fnToken.pos);
    }
    this.functions.set(key, def);
    this.libSize++;
  }

  private parseClosure(open: Token & { t: 'sym' }): Expr {
    this.i++;
    const { result: fn, externals } = this.inFunctionContext(() => {
      const params: string[] = [];
      if (open.value === '|' && !this.match('|')) {
        for (;;) {
          const param = this.next();
          if (param.t === 'sym' && param.value === '|') break;
          if (param.t !== 'ident') throw missing('|', 'to close the parameters list of anonymous function', param.pos);
          if (params.includes(param.value)) throw err(`Duplicated parameter ${param.value} for function `, param.pos);
          params.push(param.value);
          this.state.stack.push({ name: param.value, constant: false });
          const sep = this.next();
          if (sep.t === 'sym' && sep.value === '|') break;
          if (!(sep.t === 'sym' && sep.value === ',')) throw missing(',', 'to separate the parameters of anonymous function', sep.pos);
        }
      }
      const settings: Settings = { level: 0, isGlobal: false, isFunctionScope: true, isBreakable: false };
      const body = this.parseStmt(up(settings)) ?? { k: 'block', body: [], pos: open.pos };
      return { name: null, params, body, pos: open.pos } satisfies FnDef;
    });
    for (const name of externals) this.accessVar(name);
    this.libSize++;
    return { k: 'closure', fn, externals, pos: open.pos };
  }
}

/** Compiles a script; throws `RhaiParseError` with Rhai's message. */
export function parseScript(source: string, options: CompileOptions = DEFAULT_COMPILE_OPTIONS): Script {
  return new Parser(tokenize(source), options).parseScript();
}
