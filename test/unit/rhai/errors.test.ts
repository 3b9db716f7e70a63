import { describe, expect, it } from 'vitest';
import { RhaiParseError, compileScript } from '../../../src/rhai/index.js';
import { errorOf } from './run.js';

/** The message Rhai's `ParseError` displays for a script that does not compile. */
function syntaxError(source: string): string {
  try {
    compileScript(source);
  } catch (error) {
    expect(error).toBeInstanceOf(RhaiParseError);
    return (error as Error).message;
  }
  throw new Error('the script compiled');
}

describe('syntax errors', () => {
  it.each([
    ['doc.a = ', 'Script is incomplete (line 1, position 9)'],
    ['doc.a = 1 doc.b = 2', "Expecting ';' to terminate this statement (line 1, position 11)"],
    ['doc.title = doc.title.to_upper()\ndoc.x = 1', "Expecting ';' to terminate this statement (line 2, position 1)"],
    ['let = 1', 'Expecting name of a variable (line 1, position 5)'],
    ['if doc.a { ', "Expecting '}' to terminate this block (line 1, position 12)"],
    ['"abc', 'Open string is not terminated (line 1, position 1)'],
    ['doc.a = "x\\q"', "Invalid escape sequence: '\\q' (line 1, position 12)"],
    ['doc.a = 1 === 1', "'===' is not a valid operator. This is not JavaScript! Should it be '=='? (line 1, position 11)"],
    ['fn f() {} fn f() {}', 'Function f with no parameters already exists (line 1, position 11)'],
    ['fn f(a, a) {}', 'Duplicated parameter a for function f (line 1, position 9)'],
    ['if true { fn f() {} }', 'Function definitions must be at global level and cannot be inside a block or another function (line 1, position 11)'],
    ['this.x = 1', "'this' can only be used in functions (line 1, position 1)"],
    ['break;', 'Break statement should only be used inside a loop (line 1, position 1)'],
    ['doc.a = [1, 2', "Expecting ']' to end this array literal (line 1, position 14)"],
    ['doc.a = [1 2]', "Expecting ',' to separate the items of this array literal (line 1, position 12)"],
    ['doc.a = #{ a: 1 ', "Expecting '}' to end this object map literal (line 1, position 17)"],
    ['doc.a = #{ a 1 }', "Expecting ':' to follow the property 'a' in this object map literal (line 1, position 14)"],
    ['doc.a = #{ a: 1, a: 2 }', 'Duplicated property for object map literal: a (line 1, position 18)'],
    ['foo(1, 2', "Expecting ')' to close the arguments list of this function call 'foo' (line 1, position 9)"],
    ['foo(1 2)', "Expecting ',' to separate the arguments to function call 'foo' (line 1, position 7)"],
    ['doc.a = (1 + 2', "Expecting ')' for a matching ( in this expression (line 1, position 15)"],
    ['doc.a = doc.b[0', "Expecting ']' for a matching [ in this index expression (line 1, position 16)"],
    ['if doc.x = 1 {}', "Possibly a typo of '=='? (line 1, position 10)"],
    ['var x = 1', "'var' is a reserved keyword (line 1, position 1)"],
    ['let _1 = 2', "Variable name is not proper: '_1' (line 1, position 5)"],
    ['doc.a = @', "Unexpected '@' (line 1, position 9)"],
    ['doc.a = *2', "Unexpected '*' (line 1, position 9)"],
    ['if 1 { }', 'Expecting a boolean expression, not a number (line 1, position 4)'],
    ['for x in 5 {}', 'Expecting an iterable value, not a number (line 1, position 10)'],
    ['1 = 2', 'Cannot assign to a constant value (line 1, position 1)'],
    ['doc.a = 1 ++ 2', "Unknown operator: '++' (line 1, position 11)"],
    ['doc.', 'Expecting name of a property (line 1, position 5)'],
    ["doc.a = ''", "Invalid character: '' (line 1, position 9)"],
    ['switch doc.a { 1 => 2, _ => 3, 4 => 5 }', 'Default switch case must be the last (line 1, position 24)'],
    ['switch doc.a { doc.b => 1 }', 'Expecting a literal expression (line 1, position 19)'],
    ['doc.a = doc.b[true]', 'Array access expects integer index, not a boolean (line 1, position 15)'],
    ['doc.x = import', "'import' is a reserved keyword (line 1, position 9)"],
    ['doc.a.type_of', "'type_of' is a reserved keyword (line 1, position 7)"],
  ])('%j → %s', (source, message) => {
    expect(syntaxError(source)).toBe(message);
  });

  it('accepts comments, raw strings, escapes and multi-line back-tick strings', () => {
    expect(() => compileScript('// c\n/* a /* nested */ b */ doc.a = #"r\\"#; doc.b = "\\t\\u00e9\\x41"; doc.c = `line\nline`;')).not.toThrow();
  });
});

describe('runtime errors', () => {
  it.each([
    ['doc.x = doc.a.b.c;', "Unknown property 'b' - a getter is not registered for type '()' (line 1, position 15)"],
    ['doc.x = doc.n.foo();', 'Function not found: foo (i64) (line 1, position 15)'],
    ['doc.x = doc.s.contains(1);', 'Function not found: contains (&str | ImmutableString | String, i64) (line 1, position 15)'],
    ['doc.x = y;', 'Variable not found: y (line 1, position 9)'],
    ['doc.x = "a" - 1;', 'Function not found: - (&str | ImmutableString | String, i64) (line 1, position 13)'],
    ['doc.x = [1] < [2];', 'Function not found: < (array, array) (line 1, position 9)'],
    ['throw "boom";', 'Runtime error: boom (line 1, position 1)'],
    ['throw;', 'Runtime error (line 1, position 1)'],
    ['doc.x = doc.s[10];', 'String index 10 out of bounds: only 3 characters in string (line 1, position 15)'],
    ['let b = "x"; doc.x = doc.n[b];', 'Indexer unavailable: i64 [string] (line 1, position 27)'],
    ['doc.x = doc.m[1];', 'Data type incorrect: i64 (expecting string) (line 1, position 15)'],
    ['let f = |x| x; doc.x = f.call(1, 2);', 'Function not found: anon$0 (i64, i64) (line 1, position 26)'],
    ["doc.x = doc.s.len;\ndoc.y = doc.s.foo;", "Unknown property 'foo' - a getter is not registered for type 'string' (line 2, position 15)"],
    ['fn f() { x }\ndoc.x = f();', "Variable not found: x (line 1, position 10)\nin call to function 'f' (line 2, position 9)"],
    ['fn g() { throw "in g"; }\nfn f() { g() }\nf();', "Runtime error: in g (line 1, position 10)\nin call to function 'g' (line 2, position 10)\nin call to function 'f' (line 3, position 1)"],
    ['doc.tags.map(|t| t.foo());', "Function not found: foo (&str | ImmutableString | String) (line 1, position 20)\nin closure call (line 1, position 10)"],
    ['for x in doc.n {}', 'For loop expects iterable type (line 1, position 13)'],
    ['if doc.n { }', 'Data type incorrect: i64 (expecting bool) (line 1, position 7)'],
    ['let s = doc.s; s[0] = "x";', 'Data type incorrect: string (expecting char) (line 1, position 17)'],
    ['[1, "a"].sort();', 'Function not found: sort() cannot be called with elements of different types (line 1, position 10)'],
  ])('%j → %s', (source, message) => {
    expect(errorOf(source, { n: 1, s: 'abc', m: {}, tags: ['a'] })).toBe(message);
  });
});
