/**
 * The tree-walking evaluator of a parsed Rhai script, with Rhai's runtime semantics: value
 * semantics for arrays and maps (copied when stored, and before a change to a value that is no
 * variable's, which may be held elsewhere), in-place method calls on variables and
 * properties, script functions with their own scope and method-style `this`, closures sharing
 * the variables they capture, and the engine limits (operations, call depth, variables, data
 * sizes) raised as Rhai's runtime errors.
 *
 * Pure: no I/O, no clock. `print` and `debug` discard their output.
 */
import { fnKey, type Expr, type FnDef, type Script, type Stmt } from './ast.js';
import { MUTATING, NO_MATCH, binaryOp, callNative, functionNotFound, getProperty, noSetter, unaryOp, type NativeContext } from './builtins.js';
import { RhaiRuntimeError, dataTooLarge, stackOverflow, tooManyOperations } from './errors.js';
import { NO_POS, columnOf, lineOf, type Pos } from './position.js';
import {
  Cell,
  FnPtr,
  RChar,
  RRange,
  cloneValue,
  dataSizes,
  isArray,
  isMap,
  toText,
  typeName,
  valuesEqual,
  type RMap,
  type Value,
} from './values.js';

export interface RunLimits {
  maxOperations: number;
  maxCallLevels: number;
  maxVariables: number;
  maxStringSize: number;
  maxArraySize: number;
  maxMapSize: number;
}

/** A variable binding: the value, or the cell it shares with closures. */
export interface Slot {
  name: string;
  value: Value | Cell;
  constant: boolean;
}

/** A place that can be read and written: a variable, `this`, a property or an element. */
interface Ref {
  get(): Value;
  set(value: Value): void;
  /** the constant variable this place belongs to, if any */
  constant: string | null;
}

const NONE = 0;
const BREAK = 1;
const CONTINUE = 2;
const RETURN = 3;

const mismatch = (expected: string, actual: Value, pos: Pos) =>
  new RhaiRuntimeError(`Data type incorrect: ${typeName(actual)} (expecting ${expected})`, pos);

const notFound = (name: string, pos: Pos) => new RhaiRuntimeError(`Variable not found: ${name}`, pos);

function bounds(what: 'Array' | 'String', length: number, index: bigint, pos: Pos): RhaiRuntimeError {
  const unit = what === 'Array' ? 'element' : 'character';
  const container = what === 'Array' ? 'array' : 'string';
  const detail = length === 0 ? `${container} is empty` : length === 1 ? `only 1 ${unit} in ${container}` : `only ${length} ${unit}s in ${container}`;
  return new RhaiRuntimeError(`${what} index ${index} out of bounds: ${detail}`, pos);
}

/** An index into a sequence of `length`: negative indices count from the end. */
function position(index: bigint, length: number): number | null {
  const i = index < 0n ? BigInt(length) + index : index;
  return i < 0n || i >= BigInt(length) ? null : Number(i);
}

function isPlace(e: Expr): boolean {
  return e.k === 'var' || e.k === 'this' || ((e.k === 'dot' || e.k === 'index') && isPlace(e.obj));
}

export class Interpreter {
  private operations = 0;
  private level = 0;
  private flow = NONE;
  private returned: Value = null;
  private scope: Slot[] = [];
  private self: Cell | null = null;
  private anonymous = 0;

  constructor(
    private readonly script: Script,
    private readonly limits: RunLimits,
  ) {}

  /** Runs the script in `scope` (the variables it starts with), which it leaves as the script left it. */
  run(scope: Slot[]): void {
    this.scope = scope;
    try {
      for (const stmt of this.script.statements) {
        this.exec(stmt);
        if (this.flow !== NONE) break;
      }
    } catch (error) {
      throw asRhaiError(error);
    }
  }

  private tick(pos: Pos): void {
    if (++this.operations > this.limits.maxOperations) throw tooManyOperations(pos);
  }

  /** A container grown in place: its own size only, so repeated pushes stay linear. */
  private checkGrowth(container: Value, pos: Pos): void {
    if (isArray(container) && container.length > this.limits.maxArraySize) throw dataTooLarge('Size of array', pos);
    if (isMap(container) && container.size > this.limits.maxMapSize) throw dataTooLarge('Size of object map', pos);
    if (typeof container === 'string') this.checkSize(container, pos);
  }

  private checkSize(value: Value, pos: Pos): void {
    if (typeof value !== 'string' && !isArray(value) && !isMap(value)) return;
    const sizes = dataSizes(value);
    if (sizes.arrays > this.limits.maxArraySize) throw dataTooLarge('Size of array', pos);
    if (sizes.maps > this.limits.maxMapSize) throw dataTooLarge('Size of object map', pos);
    if (sizes.strings > this.limits.maxStringSize) throw dataTooLarge('Length of string', pos);
  }

  private native(pos: Pos): NativeContext {
    return { pos, limits: this.limits, call: (fn, args, extra = []) => this.callPointer(fn, args, extra, pos) };
  }

  // ---- variables ----

  private find(name: string): Slot | undefined {
    for (let i = this.scope.length - 1; i >= 0; i--) if (this.scope[i]!.name === name) return this.scope[i];
    return undefined;
  }

  private declare(name: string, value: Value, constant: boolean, pos: Pos): void {
    if (this.scope.length >= this.limits.maxVariables) throw new RhaiRuntimeError('Too many variables defined', pos);
    this.scope.push({ name, value, constant });
  }

  private static read(slot: Slot): Value {
    return slot.value instanceof Cell ? slot.value.value : slot.value;
  }

  private static write(slot: Slot, value: Value): void {
    if (slot.value instanceof Cell) slot.value.value = value;
    else slot.value = value;
  }

  // ---- statements ----

  private execBlock(body: readonly Stmt[]): Value {
    const mark = this.scope.length;
    let last: Value = null;
    try {
      for (const stmt of body) {
        last = this.exec(stmt);
        if (this.flow !== NONE) break;
      }
    } finally {
      this.scope.length = mark;
    }
    return last;
  }

  private exec(s: Stmt): Value {
    this.tick(s.pos);
    switch (s.k) {
      case 'expr':
        return this.eval(s.expr);
      case 'let':
        this.declare(s.name, s.init === null ? null : cloneValue(this.eval(s.init)), s.constant, s.pos);
        return null;
      case 'assign':
        this.assign(s);
        return null;
      case 'block':
        return this.execBlock(s.body);
      case 'if':
        if (this.condition(s.cond)) return this.exec(s.then);
        return s.otherwise === null ? null : this.exec(s.otherwise);
      case 'switch':
        return this.execSwitch(s);
      case 'while':
        while (s.cond === null || this.condition(s.cond)) {
          this.exec(s.body);
          if (this.loopShouldStop()) break;
        }
        return null;
      case 'do':
        do {
          this.exec(s.body);
          if (this.loopShouldStop()) break;
        } while (this.condition(s.cond) !== s.until);
        return null;
      case 'for':
        this.execFor(s);
        return null;
      case 'break':
        this.flow = BREAK;
        return null;
      case 'continue':
        this.flow = CONTINUE;
        return null;
      case 'return':
        this.returned = s.value === null ? null : this.eval(s.value);
        this.flow = RETURN;
        return null;
      case 'throw': {
        const value = s.value === null ? null : this.eval(s.value);
        const text = toText(value);
        throw new RhaiRuntimeError(text === '' ? 'Runtime error' : `Runtime error: ${text}`, s.pos, false, value);
      }
      case 'try':
        return this.execTry(s);
    }
  }

  /** After a loop body: consumes `break`/`continue`; true when the loop must end. */
  private loopShouldStop(): boolean {
    if (this.flow === CONTINUE) this.flow = NONE;
    if (this.flow === BREAK) {
      this.flow = NONE;
      return true;
    }
    return this.flow === RETURN;
  }

  private condition(e: Expr): boolean {
    const value = this.eval(e);
    if (typeof value !== 'boolean') throw mismatch('bool', value, e.pos);
    return value;
  }

  private execFor(s: Stmt & { k: 'for' }): void {
    const iterable = this.eval(s.iterable);
    const mark = this.scope.length;
    if (s.counter !== null) this.declare(s.counter, 0n, false, s.pos);
    this.declare(s.name, null, false, s.pos);
    const slot = this.scope[this.scope.length - 1]!;
    const counter = s.counter === null ? null : this.scope[this.scope.length - 2]!;
    let index = 0n;
    const step = (item: Value): boolean => {
      this.tick(s.pos);
      Interpreter.write(slot, item);
      if (counter !== null) Interpreter.write(counter, index);
      index++;
      this.exec(s.body);
      return this.loopShouldStop();
    };
    try {
      if (isArray(iterable)) {
        for (const item of [...iterable]) if (step(cloneValue(item))) break;
      } else if (typeof iterable === 'string') {
        for (const c of iterable) if (step(new RChar(c))) break;
      } else if (iterable instanceof RRange) {
        const { start, step: by, inclusive } = iterable;
        const end = inclusive ? iterable.end + (by > 0n ? 1n : -1n) : iterable.end;
        for (let i = start; by > 0n ? i < end : i > end; i += by) if (step(i)) break;
      } else {
        throw new RhaiRuntimeError('For loop expects iterable type', s.iterable.pos);
      }
    } finally {
      this.scope.length = mark;
    }
  }

  private execSwitch(s: Stmt & { k: 'switch' }): Value {
    const subject = this.eval(s.subject);
    const matches = (values: readonly Expr[]) =>
      values.some((e) => {
        const literal = this.eval(e);
        return typeName(literal) === typeName(subject) && valuesEqual(literal, subject);
      });
    for (const c of s.cases) {
      if (c.range === null && matches(c.values) && (c.condition === null || this.condition(c.condition))) return this.exec(c.body);
    }
    if (typeof subject === 'bigint') {
      for (const c of s.cases) {
        if (c.range === null) continue;
        const { start, end, inclusive } = c.range;
        const inside = subject >= start && (inclusive ? subject <= end : subject < end);
        if (inside && (c.condition === null || this.condition(c.condition))) return this.exec(c.body);
      }
    }
    return s.fallback === null ? null : this.exec(s.fallback);
  }

  private execTry(s: Stmt & { k: 'try' }): Value {
    const mark = this.scope.length;
    try {
      return this.exec(s.body);
    } catch (error) {
      const caught = asRhaiError(error);
      if (caught.system) throw caught;
      this.scope.length = mark;
      this.flow = NONE;
      const value: Value = caught.thrown !== undefined ? caught.thrown : errorMap(caught);
      if (s.errorVar !== null) this.declare(s.errorVar, value, false, s.pos);
      try {
        return this.exec(s.handler);
      } finally {
        this.scope.length = mark;
      }
    }
  }

  // ---- assignment ----

  private assign(s: Stmt & { k: 'assign' }): void {
    const value = this.eval(s.value);
    const ref = this.place(s.target);
    if (ref.constant !== null) throw new RhaiRuntimeError(`Cannot modify constant ${ref.constant}`, rootPos(s.target));
    let result: Value;
    if (s.op === null) {
      result = cloneValue(value);
    } else {
      const current = ref.get();
      if (s.op === '+' && isArray(current)) {
        if (isArray(value)) current.push(...value.map(cloneValue));
        else current.push(cloneValue(value));
        result = current;
      } else if (s.op === '+' && isMap(current) && isMap(value)) {
        for (const [k, v] of value) current.set(k, cloneValue(v));
        result = current;
      } else {
        result = binaryOp(s.op, current, value, s.pos);
      }
    }
    this.checkSize(result, s.pos);
    ref.set(result);
  }

  /** The place an assignable expression denotes (temporary for anything else). */
  private place(e: Expr): Ref {
    switch (e.k) {
      case 'var': {
        const slot = this.find(e.name);
        if (slot === undefined) throw notFound(e.name, e.pos);
        return {
          get: () => Interpreter.read(slot),
          set: (v) => Interpreter.write(slot, v),
          constant: slot.constant ? e.name : null,
        };
      }
      case 'this': {
        const self = this.bound(e.pos);
        return { get: () => self.value, set: (v) => (self.value = v), constant: null };
      }
      case 'dot': {
        const parent = this.placeOrValue(e.obj);
        return {
          get: () => {
            const obj = parent.get();
            return e.safe && obj === null ? null : this.property(obj, e.name, e.namePos);
          },
          set: (v) => {
            const obj = parent.get();
            if (!isMap(obj)) throw noSetter(obj, e.name, v, e.namePos);
            obj.set(e.name, v);
            this.checkGrowth(obj, e.pos);
          },
          constant: parent.constant,
        };
      }
      case 'index': {
        const parent = this.placeOrValue(e.obj);
        const index = this.eval(e.index);
        return {
          get: () => {
            const obj = parent.get();
            return e.safe && obj === null ? null : this.element(obj, index, e);
          },
          set: (v) => this.setElement(parent, index, v, e),
          constant: parent.constant,
        };
      }
      default:
        return this.temporary(this.eval(e));
    }
  }

  private placeOrValue(e: Expr): Ref {
    return isPlace(e) ? this.place(e) : this.temporary(this.eval(e));
  }

  private temporary(value: Value): Ref {
    let current = value;
    return { get: () => current, set: (v) => (current = v), constant: null };
  }

  private bound(pos: Pos): Cell {
    if (this.self === null) throw new RhaiRuntimeError("'this' not bound", pos);
    return this.self;
  }

  // ---- expressions ----

  private eval(e: Expr): Value {
    switch (e.k) {
      case 'int':
      case 'float':
      case 'str':
      case 'bool':
        return e.value;
      case 'char':
        return new RChar(e.value);
      case 'unit':
        return null;
      case 'stmt':
        return this.exec(e.stmt);
    }
    this.tick(e.pos);
    switch (e.k) {
      case 'var': {
        const slot = this.find(e.name);
        if (slot === undefined) throw notFound(e.name, e.pos);
        return Interpreter.read(slot);
      }
      case 'this':
        return this.bound(e.pos).value;
      case 'interp': {
        const text = e.parts.map((part) => toText(this.eval(part))).join('');
        this.checkSize(text, e.pos);
        return text;
      }
      case 'array': {
        const array = e.items.map((item) => cloneValue(this.eval(item)));
        this.checkSize(array, e.pos);
        return array;
      }
      case 'map': {
        const map: RMap = new Map();
        for (const [k, v] of e.entries) map.set(k, cloneValue(this.eval(v)));
        this.checkSize(map, e.pos);
        return map;
      }
      case 'dot': {
        const obj = this.eval(e.obj);
        return e.safe && obj === null ? null : this.property(obj, e.name, e.namePos);
      }
      case 'index': {
        const obj = this.eval(e.obj);
        if (e.safe && obj === null) return null;
        return this.element(obj, this.eval(e.index), e);
      }
      case 'method':
        return this.callMethod(e);
      case 'call':
        return this.callFunction(e);
      case 'unary':
        return unaryOp(e.op, this.eval(e.arg), e.pos);
      case 'binary': {
        const result = binaryOp(e.op, this.eval(e.lhs), this.eval(e.rhs), e.pos);
        this.checkSize(result, e.pos);
        return result;
      }
      case 'and':
        return this.condition(e.lhs) && this.condition(e.rhs);
      case 'or':
        return this.condition(e.lhs) || this.condition(e.rhs);
      case 'coalesce': {
        const lhs = this.eval(e.lhs);
        return lhs !== null ? lhs : this.eval(e.rhs);
      }
      case 'range': {
        const lhs = this.eval(e.lhs);
        const rhs = this.eval(e.rhs);
        if (typeof lhs !== 'bigint' || typeof rhs !== 'bigint') throw functionNotFound(e.inclusive ? '..=' : '..', [lhs, rhs], e.pos);
        return new RRange(lhs, rhs, e.inclusive);
      }
      case 'closure':
        return this.makeClosure(e);
    }
  }

  private property(obj: Value, name: string, pos: Pos): Value {
    if (isMap(obj)) return obj.get(name) ?? null;
    return getProperty(obj, name, this.native(pos));
  }

  private element(obj: Value, index: Value, e: Expr & { k: 'index' }): Value {
    if (isArray(obj)) {
      if (typeof index !== 'bigint') throw mismatch('i64', index, e.index.pos);
      const i = position(index, obj.length);
      if (i === null) throw bounds('Array', obj.length, index, e.index.pos);
      return obj[i]!;
    }
    if (isMap(obj)) {
      if (typeof index !== 'string' && !(index instanceof RChar)) throw mismatch('string', index, e.index.pos);
      return obj.get(typeof index === 'string' ? index : index.ch) ?? null;
    }
    if (typeof obj === 'string') {
      if (typeof index !== 'bigint') throw mismatch('i64', index, e.index.pos);
      const chars = [...obj];
      const i = position(index, chars.length);
      if (i === null) throw bounds('String', chars.length, index, e.index.pos);
      return new RChar(chars[i]!);
    }
    if (typeof obj === 'bigint' && typeof index === 'bigint') {
      const bit = position(index, 64);
      if (bit === null) throw new RhaiRuntimeError(`Bit-field index ${index} out of bounds: only 64 bits in bit-field`, e.index.pos);
      return ((obj >> BigInt(bit)) & 1n) === 1n;
    }
    throw new RhaiRuntimeError(`Indexer unavailable: ${typeName(obj)} [${typeName(index)}]`, e.pos);
  }

  private setElement(parent: Ref, index: Value, value: Value, e: Expr & { k: 'index' }): void {
    const obj = parent.get();
    if (isArray(obj) && typeof index === 'bigint') {
      const i = position(index, obj.length);
      if (i === null) throw bounds('Array', obj.length, index, e.index.pos);
      obj[i] = value;
    } else if (isMap(obj) && (typeof index === 'string' || index instanceof RChar)) {
      obj.set(typeof index === 'string' ? index : index.ch, value);
      this.checkGrowth(obj, e.pos);
    } else if (typeof obj === 'string' && typeof index === 'bigint') {
      if (!(value instanceof RChar)) throw mismatch('char', value, e.pos);
      const chars = [...obj];
      const i = position(index, chars.length);
      if (i === null) throw bounds('String', chars.length, index, e.index.pos);
      chars[i] = value.ch;
      parent.set(chars.join(''));
    } else if (typeof obj === 'bigint' && typeof index === 'bigint' && typeof value === 'boolean') {
      const bit = position(index, 64);
      if (bit === null) throw new RhaiRuntimeError(`Bit-field index ${index} out of bounds: only 64 bits in bit-field`, e.index.pos);
      const mask = 1n << BigInt(bit);
      parent.set(BigInt.asIntN(64, value ? obj | mask : obj & ~mask));
    } else {
      throw new RhaiRuntimeError(`Indexer unavailable: ${typeName(obj)} [${typeName(index)}] = ${typeName(value)}`, e.pos);
    }
  }

  // ---- calls ----

  private makeClosure(e: Expr & { k: 'closure' }): FnPtr {
    const captured = new Map<string, Cell>();
    for (const name of e.externals) {
      const slot = this.find(name);
      if (slot === undefined) throw notFound(name, e.pos);
      // Rhai shares a captured variable between the scope and the closure.
      if (!(slot.value instanceof Cell)) slot.value = new Cell(slot.value, slot.constant);
      captured.set(name, slot.value);
    }
    return new FnPtr(`anon$${this.anonymous++}`, e.fn, captured);
  }

  private callMethod(e: Expr & { k: 'method' }): Value {
    const ref = isPlace(e.obj) ? this.place(e.obj) : null;
    const receiver = ref === null ? this.eval(e.obj) : ref.get();
    if (e.safe && receiver === null) return null;
    const args = e.args.map((a) => this.eval(a));

    const script = this.script.functions.get(fnKey(e.name, args.length));
    if (script !== undefined) {
      // A script method works on `this`; what it leaves there goes back to the receiver (a
      // variable's: a constant or a value that is no variable, such as a function's result,
      // which may be a value held elsewhere, is worked on as a copy).
      const self = new Cell(ref === null || ref.constant !== null ? cloneValue(receiver) : receiver);
      const result = this.callScript(script, args, self, new Map(), e.pos);
      if (ref !== null && ref.constant === null && self.value !== receiver) ref.set(self.value);
      return result;
    }

    const mutating = MUTATING.has(e.name);
    if (mutating && ref?.constant != null) {
      throw new RhaiRuntimeError(`Non-pure method '${e.name}' cannot be called on constant`, e.pos);
    }
    // a value that is no variable's (`(if c { context.a } else { [] }).push(1)`, a function's
    // result) may be held elsewhere: Rhai changes a copy of it
    const callArgs = [mutating && ref === null ? cloneValue(receiver) : receiver, ...args];
    const result = callNative(e.name, callArgs, this.native(e.pos));
    if (result === NO_MATCH) throw functionNotFound(e.name, callArgs, e.pos);
    if (mutating) {
      this.checkGrowth(callArgs[0]!, e.pos);
      if (ref !== null && callArgs[0] !== receiver) ref.set(callArgs[0]!);
    }
    this.checkSize(result, e.pos);
    return result;
  }

  private callFunction(e: Expr & { k: 'call' }): Value {
    const args = e.args.map((a) => this.eval(a));
    const script = this.script.functions.get(fnKey(e.name, args.length));
    if (script !== undefined) return this.callScript(script, args, null, new Map(), e.pos);

    // A native called on a variable works on it in place (`push(list, x)` is `list.push(x)`).
    const first = e.args[0];
    const mutating = MUTATING.has(e.name) && args.length > 0;
    const slot = mutating && first?.k === 'var' ? this.find(first.name) : undefined;
    const byRef = slot !== undefined && !slot.constant;
    const callArgs = mutating && !byRef ? [cloneValue(args[0]!), ...args.slice(1)] : args;
    const result = callNative(e.name, callArgs, this.native(e.pos));
    if (result !== NO_MATCH) {
      if (byRef && callArgs[0] !== args[0]) Interpreter.write(slot, callArgs[0]!);
      this.checkSize(result, e.pos);
      return result;
    }
    // Rhai calls a variable holding a function pointer when no function has that name.
    const pointer = this.find(e.name);
    if (pointer !== undefined) {
      const fn = Interpreter.read(pointer);
      if (fn instanceof FnPtr) return this.callPointer(fn, args, [], e.pos);
    }
    throw functionNotFound(e.name, args, e.pos);
  }

  /** Calls a function pointer; `extra` arguments (an index…) only if the function takes them. */
  private callPointer(fn: FnPtr, args: Value[], extra: Value[], pos: Pos): Value {
    const all = [...fn.curry, ...args];
    if (fn.closure !== null) {
      const full = fn.closure.params.length === all.length + extra.length ? [...all, ...extra] : all;
      if (fn.closure.params.length !== full.length) throw functionNotFound(fn.name, full, pos);
      return this.callScript(fn.closure, full, null, fn.captured, pos);
    }
    for (const candidate of [[...all, ...extra], all]) {
      const script = this.script.functions.get(fnKey(fn.name, candidate.length));
      if (script !== undefined) return this.callScript(script, candidate, null, new Map(), pos);
    }
    // arguments go by value: a native that changes its first works on a copy
    const callArgs = MUTATING.has(fn.name) && all.length > 0 ? [cloneValue(all[0]!), ...all.slice(1)] : all;
    const result = callNative(fn.name, callArgs, this.native(pos));
    if (result === NO_MATCH) throw functionNotFound(fn.name, all, pos);
    return result;
  }

  private callScript(def: FnDef, args: Value[], self: Cell | null, captured: ReadonlyMap<string, Cell>, pos: Pos): Value {
    if (this.level >= this.limits.maxCallLevels) throw stackOverflow(pos);
    const saved = { scope: this.scope, self: this.self, flow: this.flow };
    this.level++;
    this.scope = [];
    for (const [name, cell] of captured) this.scope.push({ name, value: cell, constant: cell.constant });
    def.params.forEach((name, i) => this.scope.push({ name, value: cloneValue(args[i]!), constant: false }));
    this.self = self;
    this.flow = NONE;
    try {
      let result = this.exec(def.body);
      if (this.flow === RETURN) result = this.returned;
      // What a function returns is a value of its own, never a view into its receiver.
      return cloneValue(result);
    } catch (error) {
      throw asRhaiError(error).inCall(def.name, pos);
    } finally {
      this.level--;
      this.scope = saved.scope;
      this.self = saved.self;
      this.flow = saved.flow;
    }
  }
}

function rootPos(e: Expr): Pos {
  return e.k === 'dot' || e.k === 'index' ? rootPos(e.obj) : e.pos;
}

/** What `catch (err)` receives for an error that was not thrown by the script. */
function errorMap(error: RhaiRuntimeError): RMap {
  const map: RMap = new Map([['message', error.description]]);
  if (error.pos !== NO_POS) {
    map.set('line', BigInt(lineOf(error.pos)));
    map.set('position', BigInt(columnOf(error.pos)));
  }
  return map;
}

/** JavaScript's own limits, reached first on pathological scripts, as Rhai's limit errors. */
function asRhaiError(error: unknown): RhaiRuntimeError {
  if (error instanceof RhaiRuntimeError) return error;
  if (error instanceof RangeError) {
    if (/call stack/i.test(error.message)) return stackOverflow(NO_POS);
    if (/string length/i.test(error.message)) return dataTooLarge('Length of string', NO_POS);
    if (/array length/i.test(error.message)) return dataTooLarge('Size of array', NO_POS);
  }
  throw error;
}
