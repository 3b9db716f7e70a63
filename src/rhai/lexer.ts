/**
 * The Rhai tokenizer (rhai `tokenizer.rs`), for the features Meilisearch builds Rhai with
 * (`no_module`, `no_custom_syntax`, `no_time`): the same tokens, number and string rules,
 * reserved words and lexical error texts.
 *
 * Positions count characters (code points): a token is at the line and column of its first
 * character. A back-tick string with `${...}` becomes one `template` token whose interpolations
 * keep their own token lists (`{`, the tokens, `}`), which the parser reads as blocks.
 * Lexical errors become `error` tokens: the parser reports them when it reaches them, as Rhai.
 */
import { makePos, type Pos } from './position.js';

export type TemplatePart = string | Token[];

export type Token =
  | { t: 'int'; value: bigint; pos: Pos }
  | { t: 'float'; value: number; pos: Pos }
  | { t: 'str'; value: string; pos: Pos }
  | { t: 'char'; value: string; pos: Pos }
  | { t: 'ident'; value: string; pos: Pos }
  | { t: 'reserved'; value: string; pos: Pos }
  /** symbols and keywords, by their text (`+=`, `let`, `#{`) */
  | { t: 'sym'; value: string; pos: Pos }
  | { t: 'template'; parts: TemplatePart[]; pos: Pos }
  | { t: 'error'; message: string; pos: Pos }
  | { t: 'eof'; pos: Pos };

const KEYWORDS = new Set([
  'true', 'false', 'let', 'const', 'if', 'else', 'switch', 'do', 'while', 'until', 'loop', 'for', 'in',
  'continue', 'break', 'return', 'throw', 'try', 'catch', 'fn', 'private', '_',
]);

/** Reserved words (Rhai's `RESERVED_LIST` with `no_module`: import/export/as are reserved). */
const RESERVED_WORDS = new Set([
  'use', 'case', 'async', 'public', 'package', 'super', 'var', 'protected', 'spawn', 'shared', 'is', 'sync',
  'curry', 'static', 'default', 'is_shared', 'print', 'this', 'is_def_var', 'thread', 'is_def_fn', 'yield',
  'new', 'call', 'match', 'eval', 'await', 'null', 'debug', 'type_of', 'with', 'void', 'nil', 'module', 'Fn',
  'go', 'goto', 'import', 'export', 'as',
]);

/** Reserved words that may be called as functions, and those also callable in method style. */
export const KEYWORD_FUNCTIONS = new Set(['curry', 'is_shared', 'print', 'is_def_var', 'is_def_fn', 'call', 'eval', 'debug', 'type_of', 'Fn']);
export const KEYWORD_METHODS = new Set(['curry', 'is_shared', 'call', 'type_of']);

/** Reserved symbols Rhai explains (tokenizer's `ImproperSymbol` messages). */
const IMPROPER_SYMBOLS: Record<string, string> = {
  '===': "'===' is not a valid operator. This is not JavaScript! Should it be '=='?",
  '!==': "'!==' is not a valid operator. This is not JavaScript! Should it be '!='?",
  '->': "'->' is not a valid symbol. This is not C or C++!",
  '<-': "'<-' is not a valid symbol. This is not Go! Should it be '<='?",
  ':=': "':=' is not a valid assignment operator. This is not Go or Pascal! Should it be simply '='?",
  ':;': "':;' is not a valid symbol. Should it be '::'?",
  '(*': "'(* .. *)' is not a valid comment format. This is not Pascal! Should it be '/* .. */'?",
  '*)': "'(* .. *)' is not a valid comment format. This is not Pascal! Should it be '/* .. */'?",
  '# {': "'#' is not a valid symbol. Should it be '#{'?",
};

/** Tokens after which a `-` or `+` is unary (Rhai's `is_next_unary`). */
const NEXT_IS_UNARY = new Set([
  ';', ':', ',', '??', '..', '..=', '{', '(', '[', '+', '+=', '-', '-=', '*', '*=', '/', '/=', '%', '%=', '**', '**=',
  '<<', '<<=', '>>', '>>=', '=', '==', '!=', '<', '>', '!', '<=', '>=', '|', '&', 'if', 'while', 'until', 'in',
  '!in', '&&', '&=', '||', '|=', '^', '^=', 'return', 'throw', '?[',
]);

const isAlpha = (c: string | undefined) => c !== undefined && /^[A-Za-z]$/.test(c);
const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
const isIdContinue = (c: string | undefined) => c !== undefined && /^[A-Za-z0-9_]$/.test(c);
const isWhitespace = (c: string) => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f';

/** Rhai's `is_valid_identifier`: underscores, then a letter before any digit. */
export function isValidIdentifier(name: string): boolean {
  let alphabetic = false;
  for (const c of name) {
    if (c === '_') continue;
    if (isAlpha(c)) alphabetic = true;
    else if (!alphabetic || !isIdContinue(c)) return false;
  }
  return alphabetic;
}

const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;
const U64_MAX = 2n ** 64n - 1n;

/** Rust's `i64::from_str`: an optional sign then decimal digits. */
function parseI64(text: string): bigint | null {
  if (!/^[+-]?\d+$/.test(text)) return null;
  const value = BigInt(text);
  return value < I64_MIN || value > I64_MAX ? null : value;
}

/** Rust's `f64::from_str` on the digits, `.`, `e` and signs a Rhai number can hold. */
function parseF64(text: string): number | null {
  return /^[+-]?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?)$/.test(text) ? Number(text) : null;
}

class Lexer {
  private i = 0;
  private line = 1;
  private col = 0;
  private cannotBeUnary = false;

  constructor(private readonly cs: readonly string[]) {}

  private peek(k = 0): string | undefined {
    return this.cs[this.i + k];
  }

  private get pos(): Pos {
    return makePos(this.line, this.col);
  }

  /** Consumes one character, counting it on the current line. */
  private take(): string | undefined {
    const c = this.cs[this.i];
    if (c === undefined) return undefined;
    this.i++;
    this.col++;
    return c;
  }

  private newLine(): void {
    this.line++;
    this.col = 0;
  }

  /** The next token, tracking whether a following `-` may start a negative number. */
  next(): Token {
    const token = this.scan();
    const text = token.t === 'sym' ? token.value : token.t === 'error' ? '' : null;
    this.cannotBeUnary = !(token.t === 'error' || (text !== null && NEXT_IS_UNARY.has(text)));
    return token;
  }

  private sym(value: string, pos: Pos, extra = 0): Token {
    for (let k = 0; k < extra; k++) this.take();
    return { t: 'sym', value, pos };
  }

  private reserved(value: string, pos: Pos, extra = 0): Token {
    for (let k = 0; k < extra; k++) this.take();
    const improper = IMPROPER_SYMBOLS[value];
    return improper === undefined ? { t: 'reserved', value, pos } : { t: 'error', message: improper, pos };
  }

  private scan(): Token {
    let negated: Pos | null = null;
    for (;;) {
      const c = this.take();
      if (c === undefined) {
        this.col++;
        return { t: 'eof', pos: this.pos };
      }
      const start = this.pos;
      const cc = this.peek();
      if (isDigit(c)) return this.number(c, negated ?? start, negated !== null);
      switch (c) {
        case '"':
          return this.quoted('"', start);
        case '`':
          return this.backtick(start);
        case "'":
          return this.character(start);
        case '{':
          return this.sym('{', start);
        case '}':
          return this.sym('}', start);
        case '(':
          if (cc === ')') return this.sym('()', start, 1);
          if (cc === '*') return this.reserved('(*', start, 1);
          return this.sym('(', start);
        case ')':
          return this.sym(')', start);
        case '[':
          return this.sym('[', start);
        case ']':
          return this.sym(']', start);
        case '#':
          if (cc === '{') return this.sym('#{', start, 1);
          if (cc === '"' || cc === '#') return this.rawString(start);
          if (cc === '!') return this.reserved('#!', start);
          if (cc === ' ') {
            this.take();
            return this.peek() === '{' ? this.reserved('# {', start, 1) : this.reserved('#', start);
          }
          return this.reserved('#', start);
        case '+':
          if (cc === '=') return this.sym('+=', start, 1);
          if (cc === '+') return this.reserved('++', start, 1);
          return this.sym('+', start);
        case '-':
          if (isDigit(cc) && !this.cannotBeUnary) {
            negated = start;
            continue;
          }
          if (cc === '=') return this.sym('-=', start, 1);
          if (cc === '>') return this.reserved('->', start, 1);
          if (cc === '-') return this.reserved('--', start, 1);
          return this.sym('-', start);
        case '*':
          if (cc === ')') return this.reserved('*)', start, 1);
          if (cc === '=') return this.sym('*=', start, 1);
          if (cc === '*') return this.peek(1) === '=' ? this.sym('**=', start, 2) : this.sym('**', start, 1);
          return this.sym('*', start);
        case '/':
          if (cc === '/') {
            this.lineComment();
            continue;
          }
          if (cc === '*') {
            this.take();
            this.blockComment();
            continue;
          }
          if (cc === '=') return this.sym('/=', start, 1);
          return this.sym('/', start);
        case ';':
          return this.sym(';', start);
        case ',':
          return this.sym(',', start);
        case '.':
          if (cc === '.') {
            const third = this.peek(1);
            if (third === '.') return this.reserved('...', start, 2);
            if (third === '=') return this.sym('..=', start, 2);
            return this.sym('..', start, 1);
          }
          return this.sym('.', start);
        case '=':
          if (cc === '=') return this.peek(1) === '=' ? this.reserved('===', start, 2) : this.sym('==', start, 1);
          if (cc === '>') return this.sym('=>', start, 1);
          return this.sym('=', start);
        case ':':
          // `::` is two colons: namespaces do not exist without modules.
          if (cc === '=') return this.reserved(':=', start, 1);
          if (cc === ';') return this.reserved(':;', start, 1);
          return this.sym(':', start);
        case '<':
          if (cc === '=') return this.sym('<=', start, 1);
          if (cc === '-') return this.reserved('<-', start, 1);
          if (cc === '<') return this.peek(1) === '=' ? this.sym('<<=', start, 2) : this.sym('<<', start, 1);
          if (cc === '|') return this.reserved('<|', start, 1);
          return this.sym('<', start);
        case '>':
          if (cc === '=') return this.sym('>=', start, 1);
          if (cc === '>') return this.peek(1) === '=' ? this.sym('>>=', start, 2) : this.sym('>>', start, 1);
          return this.sym('>', start);
        case '!':
          if (cc === 'i' && this.peek(1) === 'n' && !isIdContinue(this.peek(2))) return this.sym('!in', start, 2);
          if (cc === '=') return this.peek(1) === '=' ? this.reserved('!==', start, 2) : this.sym('!=', start, 1);
          if (cc === '.') return this.reserved('!.', start, 1);
          return this.sym('!', start);
        case '|':
          if (cc === '|') return this.sym('||', start, 1);
          if (cc === '=') return this.sym('|=', start, 1);
          if (cc === '>') return this.reserved('|>', start, 1);
          return this.sym('|', start);
        case '&':
          if (cc === '&') return this.sym('&&', start, 1);
          if (cc === '=') return this.sym('&=', start, 1);
          return this.sym('&', start);
        case '^':
          if (cc === '=') return this.sym('^=', start, 1);
          return this.sym('^', start);
        case '%':
          if (cc === '=') return this.sym('%=', start, 1);
          return this.sym('%', start);
        case '~':
        case '@':
        case '$':
          return this.reserved(c, start);
        case '?':
          if (cc === '.') return this.sym('?.', start, 1);
          if (cc === '?') return this.sym('??', start, 1);
          if (cc === '[') return this.sym('?[', start, 1);
          return this.reserved('?', start);
        case '\n':
          this.newLine();
          continue;
        default:
          if (isAlpha(c) || c === '_') return this.identifier(c, start);
          if (isWhitespace(c)) continue;
          return { t: 'error', message: `Unexpected '${c}'`, pos: start };
      }
    }
  }

  private lineComment(): void {
    for (let c = this.take(); c !== undefined; c = this.take()) {
      if (c === '\r' && this.peek() === '\n') this.take();
      if (c === '\n' || c === '\r') {
        this.newLine();
        return;
      }
    }
  }

  /** Block comments nest, as in Rhai. */
  private blockComment(): void {
    let level = 1;
    for (let c = this.take(); c !== undefined && level > 0; c = level > 0 ? this.take() : undefined) {
      if (c === '/' && this.peek() === '*') {
        this.take();
        level++;
      } else if (c === '*' && this.peek() === '/') {
        this.take();
        level--;
      } else if (c === '\n') {
        this.newLine();
      }
    }
  }

  private identifier(first: string, start: Pos): Token {
    let name = first;
    while (isIdContinue(this.peek())) name += this.take()!;
    if (KEYWORDS.has(name)) return { t: 'sym', value: name, pos: start };
    if (RESERVED_WORDS.has(name)) return { t: 'reserved', value: name, pos: start };
    if (!isValidIdentifier(name)) return { t: 'error', message: `Variable name is not proper: '${name}'`, pos: start };
    return { t: 'ident', value: name, pos: start };
  }

  private number(first: string, pos: Pos, negative: boolean): Token {
    let text = first;
    let radix: number | null = null;
    let valid = isDigit;
    let period = false;
    let exponent = false;
    for (let c = this.peek(); c !== undefined; c = this.peek()) {
      if (c === '_') {
        this.take();
      } else if (valid(c)) {
        text += this.take();
      } else if (c === '.' && !period && radix === null) {
        const after = this.peek(1);
        if (isDigit(after)) {
          text += this.take();
          period = true;
        } else if (after !== undefined && after !== '_' && after !== '.' && !isAlpha(after)) {
          // `1.` followed by a symbol is the float `1.0`; followed by a name it is a method call.
          this.take();
          text += '.0';
          period = true;
        } else {
          break;
        }
      } else if ((c === 'e' || c === 'E') && !exponent && radix === null) {
        const after = this.peek(1);
        if (isDigit(after)) {
          this.take();
          text += 'e';
        } else if (after === '+' || after === '-') {
          this.take();
          text += 'e' + this.take()!;
        } else {
          break;
        }
        exponent = true;
        period = true;
      } else if ('xXoObB'.includes(c) && first === '0' && text.length === 1) {
        text += this.take();
        radix = 'xX'.includes(c) ? 16 : 'oO'.includes(c) ? 8 : 2;
        valid =
          radix === 16 ? (d) => d !== undefined && /^[0-9a-fA-F]$/.test(d) : radix === 8 ? (d) => d !== undefined && d >= '0' && d <= '7' : (d) => d === '0' || d === '1';
      } else {
        break;
      }
    }
    if (negative) text = `-${text}`;
    if (radix !== null) {
      // Rhai parses the digits after the two-character prefix (so a negated literal keeps its `x`).
      const digits = text.slice(2);
      const prefix = radix === 16 ? '0x' : radix === 8 ? '0o' : '0b';
      const value = /^[0-9a-fA-F]+$/.test(digits) ? BigInt(prefix + digits) : null;
      if (value === null || value > U64_MAX) return { t: 'error', message: `Invalid number: '${digits}'`, pos };
      return { t: 'int', value: BigInt.asIntN(64, value), pos };
    }
    const int = parseI64(text);
    if (int !== null) return { t: 'int', value: int, pos };
    const float = parseF64(text);
    if (float !== null) return { t: 'float', value: float, pos };
    return { t: 'error', message: `Invalid number: '${text}'`, pos };
  }

  /** `"..."` and `'...'`: escapes, doubled quotes and (for `"`) line continuation. */
  private quotedBody(quote: string, start: Pos, continuation: boolean): string | Token {
    let out = '';
    let escape = false;
    let skipSpaceUntil = 0;
    for (;;) {
      const c = this.take();
      if (c === undefined) return { t: 'error', message: 'Open string is not terminated', pos: start };
      if (c === quote && !escape) {
        if (this.peek() !== quote) return out;
        this.take();
        out += quote;
        continue;
      }
      if (c === '\r' && this.peek() === '\n') continue;
      if (escape) {
        escape = false;
        if (c === 'n') out += '\n';
        else if (c === 'r') out += '\r';
        else if (c === 't') out += '\t';
        else if (c === '\\') out += '\\';
        else if (c === quote) out += quote;
        else if (c === 'x' || c === 'u' || c === 'U') {
          let seq = `\\${c}`;
          let code = 0;
          for (let k = c === 'x' ? 2 : c === 'u' ? 4 : 8; k > 0; k--) {
            const d = this.take();
            if (d !== undefined) seq += d;
            if (d === undefined || !/^[0-9a-fA-F]$/.test(d)) return { t: 'error', message: `Invalid escape sequence: '${seq}'`, pos: this.pos };
            code = code * 16 + parseInt(d, 16);
          }
          if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
            return { t: 'error', message: `Invalid escape sequence: '${seq}'`, pos: this.pos };
          }
          out += String.fromCodePoint(code);
        } else if (c === '\n' && continuation) {
          this.newLine();
          skipSpaceUntil = (start % 0x10000) + 1;
        } else {
          return { t: 'error', message: `Invalid escape sequence: '\\${c}'`, pos: this.pos };
        }
        continue;
      }
      if (c === '\\') {
        escape = true;
        continue;
      }
      if (c === '\n') {
        this.col--;
        return { t: 'error', message: 'Open string is not terminated', pos: start };
      }
      if (isWhitespace(c) && this.col < skipSpaceUntil) continue;
      skipSpaceUntil = 0;
      out += c;
    }
  }

  private quoted(quote: string, start: Pos): Token {
    const body = this.quotedBody(quote, start, true);
    return typeof body === 'string' ? { t: 'str', value: body, pos: start } : body;
  }

  private character(start: Pos): Token {
    if (this.peek() === "'") {
      this.take();
      return { t: 'error', message: "Invalid character: ''", pos: start };
    }
    const body = this.quotedBody("'", start, false);
    if (typeof body !== 'string') return body;
    const chars = [...body];
    return chars.length === 1 ? { t: 'char', value: body, pos: start } : { t: 'error', message: `Invalid character: '${body}'`, pos: start };
  }

  /** `#"..."#`: no escapes, ends at a quote followed by as many `#` as it opened with. */
  private rawString(start: Pos): Token {
    let hashes = 1;
    while (this.peek() === '#') {
      this.take();
      hashes++;
    }
    const quote = this.take();
    if (quote !== '"') return { t: 'error', message: quote === undefined ? 'Open string is not terminated' : `Unexpected '${quote}'`, pos: start };
    let out = '';
    for (;;) {
      const c = this.take();
      if (c === undefined) return { t: 'error', message: 'Open string is not terminated', pos: start };
      if (c === '"') {
        let seen = 0;
        while (seen < hashes && this.peek() === '#') {
          this.take();
          seen++;
        }
        if (seen === hashes) return { t: 'str', value: out, pos: start };
        out += '"' + '#'.repeat(seen);
        continue;
      }
      if (c === '\n') this.newLine();
      out += c;
    }
  }

  /** A back-tick string: verbatim text, doubled back-ticks, `${...}` interpolations. */
  private backtick(start: Pos): Token {
    if (this.peek() === '\r' && this.peek(1) === '\n') {
      this.take();
      this.take();
      this.newLine();
    } else if (this.peek() === '\n') {
      this.take();
      this.newLine();
    }
    const parts: TemplatePart[] = [];
    let interpolated = false;
    let text = '';
    for (;;) {
      const c = this.take();
      if (c === undefined) return { t: 'error', message: 'Open string is not terminated', pos: start };
      if (c === '`') {
        if (this.peek() !== '`') break;
        this.take();
        text += '`';
        continue;
      }
      if (c === '$' && this.peek() === '{') {
        if (text !== '') parts.push(text);
        text = '';
        interpolated = true;
        const tokens = this.interpolation();
        const last = tokens[tokens.length - 1]!;
        if (last.t === 'error') return last;
        parts.push(tokens);
        continue;
      }
      if (c === '\r' && this.peek() === '\n') continue;
      if (c === '\n') this.newLine();
      text += c;
    }
    if (!interpolated) return { t: 'str', value: text, pos: start };
    if (text !== '') parts.push(text);
    return { t: 'template', parts, pos: start };
  }

  /** The tokens of one `${...}`: the braces included, ending with `eof`. */
  private interpolation(): Token[] {
    this.cannotBeUnary = false;
    const tokens: Token[] = [this.next()];
    let depth = 0;
    for (;;) {
      const token = this.next();
      tokens.push(token);
      if (token.t === 'eof' || token.t === 'error') return tokens;
      if (token.t === 'sym' && (token.value === '{' || token.value === '#{')) depth++;
      if (token.t === 'sym' && token.value === '}' && depth-- === 0) break;
    }
    tokens.push({ t: 'eof', pos: this.pos });
    return tokens;
  }
}

/** Every token of a script, ending with `eof` (after the first lexical error, nothing more). */
export function tokenize(source: string): Token[] {
  const lexer = new Lexer([...source]);
  const tokens: Token[] = [];
  for (;;) {
    const token = lexer.next();
    tokens.push(token);
    if (token.t === 'eof' || token.t === 'error') return tokens;
  }
}
