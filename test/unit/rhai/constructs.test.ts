import { describe, expect, it } from 'vitest';
import { EDITION_COMPILE_OPTIONS, compileScript, editDocument, editionContext } from '../../../src/rhai/index.js';
import { edited, errorOf, run, typed, value } from './run.js';

describe('fields of doc', () => {
  it('assigns with dot and index notation, nested, creating missing keys', () => {
    const doc = { id: 1, meta: { views: 5, 'a b': 1 }, tags: ['x', 'y'] };
    expect(edited('doc.title = "x"; doc["release year"] = 2020; doc.meta.views = 0; doc.meta["a b"] = 2; doc.tags[0] = "z";', doc)).toEqual({
      id: 1,
      meta: { views: 0, 'a b': 2 },
      tags: ['z', 'y'],
      title: 'x',
      'release year': 2020,
    });
  });

  it('reads a missing property as () and stores () as null', () => {
    expect(edited('doc.a = doc.missing; doc.b = doc.missing == (); doc.c = type_of(doc.missing);', {})).toEqual({ a: null, b: true, c: '()' });
  });

  it('refuses to set a property below a missing one', () => {
    expect(errorOf('doc.meta.views = 1;')).toBe(
      "No writable property 'views' - a setter is not registered for type '()' to handle 'i64' (line 1, position 10)",
    );
  });

  it('applies compound assignments to numbers, strings, arrays and maps', () => {
    const doc = { views: 1, price: 10, title: 'a', tags: ['x'], meta: { a: 1 } };
    expect(edited('doc.views += 1; doc.price *= 1.5; doc.title += "b"; doc.tags += "y"; doc.tags += ["z"]; doc.meta += #{ b: 2 }; doc.views -= 3;', doc)).toEqual({
      views: -1,
      price: 15,
      title: 'ab',
      tags: ['x', 'y', 'z'],
      meta: { a: 1, b: 2 },
    });
  });

  it('deletes the document with doc = ()', () => {
    expect(run('if doc.id % 2 == 0 { doc = (); }', { id: 2 })).toEqual({ kind: 'delete' });
    expect(run('if doc.id % 2 == 0 { doc = (); }', { id: 3 })).toEqual({ kind: 'replace', document: { id: 3 } });
  });

  it('reports a doc that is no longer an object map', () => {
    expect(run('doc = 1;', { id: 1 })).toEqual({ kind: 'notAnObject' });
  });

  it('removes a field with doc.remove, returning its value', () => {
    expect(edited('doc.old = doc.remove("overview"); doc.none = doc.remove("nothing");', { id: 1, overview: 'long' })).toEqual({ id: 1, old: 'long', none: null });
  });

  it('uses the last doc variable when the script shadows it', () => {
    expect(edited('let doc = #{ id: 9 };', { id: 1 })).toEqual({ id: 9 });
  });
});

describe('arithmetic', () => {
  it('keeps INT and FLOAT apart, as Rhai does', () => {
    expect(typed('7 / 2')).toEqual(['i64', '3']);
    expect(typed('-7 / 2')).toEqual(['i64', '-3']);
    expect(typed('-7 % 3')).toEqual(['i64', '-1']);
    expect(typed('7.0 / 2')).toEqual(['f64', '3.5']);
    expect(typed('1 + 1.5')).toEqual(['f64', '2.5']);
    expect(typed('2 ** 10')).toEqual(['i64', '1024']);
    expect(typed('4.0 ** 0.5')).toEqual(['f64', '2.0']);
    expect(typed('2.0 * 3')).toEqual(['f64', '6.0']);
  });

  it('follows Rhai precedence: ** binds right, shifts bind tighter than +', () => {
    expect(value('1 + 2 * 3')).toBe(7);
    expect(value('(1 + 2) * 3')).toBe(9);
    expect(value('2 ** 3 ** 2')).toBe(512);
    expect(value('1 + 1 << 2')).toBe(5);
    expect(value('10 - 2 - 3')).toBe(5);
    expect(value('-2 ** 2')).toBe(4);
  });

  it('computes bitwise operators on integers and booleans', () => {
    expect(value('[6 & 3, 6 | 3, 6 ^ 3, -16 >> 2, true ^ true, true | false]')).toEqual([2, 7, 5, -4, false, true]);
  });

  it('raises overflow and division errors with Rhai messages', () => {
    expect(errorOf('let x = 9223372036854775807; x += 1;')).toBe('Addition overflow: 9223372036854775807 + 1 (line 1, position 32)');
    expect(errorOf('doc.x = -9223372036854775808 - 1;')).toBe('Subtraction overflow: -9223372036854775808 - 1 (line 1, position 30)');
    expect(errorOf('doc.x = 4294967296 * 4294967296;')).toBe('Multiplication overflow: 4294967296 * 4294967296 (line 1, position 20)');
    expect(errorOf('doc.x = 1 / 0;')).toBe('Division by zero: 1 / 0 (line 1, position 11)');
    expect(errorOf('doc.x = 1 % 0;')).toBe('Modulo division by zero or overflow: 1 % 0 (line 1, position 11)');
    expect(errorOf('doc.x = 2 ** 64;')).toBe('Exponential overflow: 2 ** 64 (line 1, position 11)');
    expect(errorOf('doc.x = 2 ** -1;')).toBe('Integer raised to a negative power: 2 ** -1 (line 1, position 11)');
  });

  it('lets floats overflow to infinity, stored as null', () => {
    expect(edited('doc.x = 1.0 / 0; doc.y = type_of(1.0 / 0);')).toEqual({ x: null, y: 'f64' });
  });

  it('parses integer literals too large for an i64 as floats, except i64::MIN', () => {
    expect(typed('9223372036854775808')).toEqual(['f64', '9.223372036854776e18']);
    expect(typed('-9223372036854775808')).toEqual(['i64', '-9223372036854775808']);
    expect(typed('0xff')).toEqual(['i64', '255']);
    expect(typed('1_000_000')).toEqual(['i64', '1000000']);
  });
});

describe('comparisons and logic', () => {
  it('compares INT with FLOAT numerically and different types as unequal', () => {
    expect(value('[1 == 1.0, 2 > 1.5, "a" < "b", 1 == "1", 1 != "1", 1 < "2", () == (), "a" == \'a\']')).toEqual([
      true, true, true, false, true, false, true, true,
    ]);
  });

  it('treats comparisons with a missing property as false', () => {
    expect(value('[doc.missing > 3, doc.missing < 3, doc.missing == 3, doc.missing != 3]')).toEqual([false, false, false, true]);
  });

  it('short-circuits && and ||, and requires booleans', () => {
    expect(value('false && doc.a.b.c')).toBe(false);
    expect(value('true || doc.a.b.c')).toBe(true);
    expect(value('doc.rating > 4 && !doc.hidden', { rating: 5, hidden: false })).toBe(true);
    expect(errorOf('doc.x = doc.n && true;', { n: 1 })).toMatch(/^Data type incorrect: i64 \(expecting bool\) \(line 1, position \d+\)$/);
  });

  it('checks membership with in and !in', () => {
    expect(value('["a" in doc.tags, "z" in doc.tags, "id" in doc, "x" !in doc, "ell" in "hello", 3 in 1..5, 5 in 1..5, 5 in 1..=5]', { id: 1, tags: ['a'] })).toEqual([
      true, false, true, true, true, true, false, true,
    ]);
  });

  it('coalesces () with ?? and navigates () safely with ?. and ?[', () => {
    expect(value('[doc.missing ?? "dflt", doc.a ?? "dflt", doc.missing?.deep, doc.missing?[0]]', { a: 1 })).toEqual(['dflt', 1, null, null]);
  });
});

describe('strings', () => {
  it('provides the usual string methods', () => {
    const doc = { title: '  Hello World  ', name: 'héllo' };
    expect(
      edited(
        'doc.up = doc.name.to_upper(); doc.low = "ABC".to_lower(); doc.title.trim(); doc.len = doc.name.len(); doc.has = doc.name.contains("ll"); ' +
          'doc.sw = doc.title.starts_with("Hell"); doc.ew = doc.title.ends_with("World"); doc.sub = doc.title.sub_string(6, 3); ' +
          'doc.at = doc.title.index_of("World"); doc.none = doc.title.index_of("xyz"); doc.parts = "a,b,,c".split(","); ' +
          'let s = "a-b-c"; s.replace("-", "+"); doc.rep = s; doc.cat = "a" + "b" + 1 + 1.5 + true + \'c\' + ();',
        doc,
      ),
    ).toEqual({
      title: 'Hello World',
      name: 'héllo',
      up: 'HÉLLO',
      low: 'abc',
      len: 5,
      has: true,
      sw: true,
      ew: true,
      sub: 'Wor',
      at: 6,
      none: -1,
      parts: ['a', 'b', '', 'c'],
      rep: 'a+b+c',
      cat: 'ab11.5truec',
    });
  });

  it('changes strings in place with trim and replace, which return ()', () => {
    expect(edited('let r = doc.t.trim(); doc.r = r;', { t: ' x ' })).toEqual({ t: 'x', r: null });
    // Rust's whitespace: NEL is, the BOM is not; inner runs stay
    expect(edited('doc.t.trim();', { t: '\u0085\ufeffx  y\u3000' })).toEqual({ t: '\ufeffx  y' });
  });

  it('interpolates expressions in back-tick strings with their print form', () => {
    expect(value('`${doc.first} ${doc.last}: ${1 + 1}, ${2.0}, [${()}], ${[1, "a"]}`', { first: 'Ada', last: 'Lovelace' })).toBe(
      'Ada Lovelace: 2, 2.0, [], [1, "a"]',
    );
  });

  it('keeps braces and back-ticks inside interpolations apart from the text', () => {
    expect(value('`a${ #{ k: "}" }.k }b${ `in${1}` }c``d`')).toBe('a}bin1c`d');
  });

  it('indexes strings by character and iterates their characters', () => {
    expect(edited('doc.c = doc.s[1]; doc.last = doc.s[-1]; let n = 0; for c in doc.s { n += 1; } doc.n = n; doc.t = type_of(doc.s[0]);', { s: 'héllo' })).toEqual({
      s: 'héllo',
      c: 'é',
      last: 'o',
      n: 5,
      t: 'char',
    });
  });

  it('supports sub_string from the end, pad, truncate, split by index and whitespace', () => {
    expect(value('["hello".sub_string(-3, 2), "hello".sub_string(2), "a b  c".split(), "hello".split(2)]')).toEqual(['ll', 'llo', ['a', 'b', 'c'], ['he', 'llo']]);
    expect(edited('doc.s.pad(5, "*"); doc.t.truncate(2);', { s: 'ab', t: 'abcdef' })).toEqual({ s: 'ab***', t: 'ab' });
  });

  it('pads by characters, the fill repeated and cut at the length, emoji being one; never shortens', () => {
    const padded = (script: string) => edited(script, { s: 'a😀' }).s;
    expect(padded('doc.s.pad(6, "xy😀");')).toBe('a😀xy😀x');
    expect(padded('doc.s.pad(4, "😀");')).toBe('a😀😀😀');
    expect(padded('doc.s.pad(2, "z");')).toBe('a😀');
    expect(padded('doc.s.pad(1, "z");')).toBe('a😀');
    expect(padded('doc.s.pad(9, "");')).toBe('a😀');
    expect(padded("doc.s.pad(5, 'c');")).toBe('a😀ccc');
  });

  it('counts, finds and cuts strings by characters, emoji being one', () => {
    const s = '"a😀b😀c"';
    expect(value(`[${s}.len(), ${s}.index_of("😀"), ${s}.index_of("😀", 2), ${s}.index_of("c", -1), ${s}.index_of("x"), ${s}.sub_string(1, 3), ${s}.sub_string(-2), ${s}.sub_string(4, 9)]`)).toEqual([
      5, 1, 3, 4, -1, '😀b😀', '😀c', 'c',
    ]);
  });
});

describe('conversions', () => {
  it('converts between strings and numbers', () => {
    expect(typed('"42".parse_int()')).toEqual(['i64', '42']);
    expect(typed('parse_int(" -7 ")')).toEqual(['i64', '-7']);
    expect(typed('"3.5".parse_float()')).toEqual(['f64', '3.5']);
    expect(typed('3.7.to_int()')).toEqual(['i64', '3']);
    expect(typed('(-3.7).to_int()')).toEqual(['i64', '-3']);
    expect(typed('5.to_float()')).toEqual(['f64', '5.0']);
    expect(typed('42.to_string()')).toEqual(['string', '42']);
    expect(typed('"ff".parse_int(16)')).toEqual(['i64', '255']);
  });

  it('names types with type_of', () => {
    expect(value('[type_of(1), type_of(1.0), type_of("a"), type_of(\'a\'), type_of(true), type_of(()), type_of([]), type_of(#{}), type_of(|x| x), type_of(1..2), 1.type_of()]')).toEqual([
      'i64', 'f64', 'string', 'char', 'bool', '()', 'array', 'map', 'Fn', 'range', 'i64',
    ]);
  });

  it('fails to parse what is not a number, with Rhai messages', () => {
    expect(errorOf('doc.x = "abc".parse_int();')).toBe("Error parsing integer number 'abc': invalid digit found in string (line 1, position 15)");
    expect(errorOf('doc.x = "".parse_float();')).toBe("Error parsing floating-point number '': cannot parse float from empty string (line 1, position 12)");
    expect(errorOf('doc.x = 1e300.to_int();')).toBe('Integer overflow: to_int(1e300) (line 1, position 15)');
  });
});

describe('variables and control flow', () => {
  it('declares variables and constants, with shadowing and block scope', () => {
    expect(edited('let x = 1; const Y = 2; let x = x + Y; { let x = 100; } doc.x = x;')).toEqual({ x: 3 });
  });

  it('refuses assignments to constants, at compile time when it can', () => {
    expect(errorOf('const x = 1; x = 2;')).toBe('Cannot assign to constant x (line 1, position 14)');
    expect(errorOf('context = 1;', {}, { a: 1 })).toBe('Cannot modify constant context (line 1, position 1)');
    expect(errorOf('context.a = 2;', {}, { a: 1 })).toBe('Cannot modify constant context (line 1, position 1)');
  });

  it('branches with if / else if / else, also as an expression', () => {
    const script = 'doc.size = if doc.n > 10 { "big" } else if doc.n > 5 { "mid" } else { "small" };';
    expect([20, 7, 1].map((n) => edited(script, { n }).size)).toEqual(['big', 'mid', 'small']);
  });

  it('switches on literals, alternatives, ranges and conditions, with a default', () => {
    const script =
      'doc.r = switch doc.v { 1 | 2 => "one or two", 3 if doc.flag => "three flagged", 3 => "three", 10..20 => "teens", "a" => { "letter" }, _ => "other" };';
    const results = [1, 2, 3, 15, 'a', 99, 1.0].map((v) => edited(script, { v, flag: false }).r);
    expect(results).toEqual(['one or two', 'one or two', 'three', 'teens', 'letter', 'other', 'one or two']);
    expect(edited(script, { v: 3, flag: true }).r).toBe('three flagged');
  });

  it('loops with for over arrays, ranges and counters, while, loop, do/until, break and continue', () => {
    const script = `
      let sum = 0;
      for x in doc.nums { if x == 2 { continue; } sum += x; }
      for (x, i) in ["a", "b"] { doc[x] = i; }
      let r = [];
      for i in range(0, 10, 3) { r.push(i); }
      let w = 0;
      while w < 5 { w += 1; }
      let l = 0;
      loop { l += 1; if l == 3 { break; } }
      let d = 0;
      do { d += 2; } until d >= 6;
      doc.sum = sum; doc.r = r; doc.w = w; doc.l = l; doc.d = d;
      let total = 0;
      for i in 1..=4 { total += i; }
      doc.total = total;
    `;
    expect(edited(script, { nums: [1, 2, 3] })).toEqual({ nums: [1, 2, 3], a: 0, b: 1, sum: 4, r: [0, 3, 6, 9], w: 5, l: 3, d: 6, total: 10 });
  });

  it('iterates over a copy of the array, binding copies of its items', () => {
    expect(edited('for t in doc.tags { doc.tags.push(t); t.push(1); }', { tags: [[0]] })).toEqual({ tags: [[0], [0]] });
  });

  it('catches thrown values and runtime errors with try / catch', () => {
    expect(edited('try { throw "boom"; } catch (e) { doc.e = e; } try { let x = 1 / 0; } catch (err) { doc.m = err.message; }')).toEqual({
      e: 'boom',
      m: 'Division by zero: 1 / 0',
    });
  });

  it('stops the script at a top-level return', () => {
    expect(edited('doc.a = 1; return; doc.b = 2;')).toEqual({ a: 1 });
  });
});

describe('arrays', () => {
  it('pushes, measures, searches and indexes', () => {
    expect(edited('doc.tags.push("new"); doc.n = doc.tags.len(); doc.has = doc.tags.contains("a"); doc.first = doc.tags[0]; doc.last = doc.tags[-1]; doc.i = doc.tags.index_of("new");', { tags: ['a', 'b'] })).toEqual({
      tags: ['a', 'b', 'new'],
      n: 3,
      has: true,
      first: 'a',
      last: 'new',
      i: 2,
    });
  });

  it('maps, filters and reduces with closures', () => {
    expect(
      edited('doc.up = doc.tags.map(|t| t.to_upper()); doc.long = doc.tags.filter(|t| t.len() > 1); doc.total = doc.n.reduce(|sum, x| sum + x, 0); doc.idx = doc.tags.map(|t, i| i);', {
        tags: ['ab', 'c'],
        n: [1, 2, 3],
      }),
    ).toEqual({ tags: ['ab', 'c'], n: [1, 2, 3], up: ['AB', 'C'], long: ['ab'], total: 6, idx: [0, 1] });
  });

  it('sorts, reverses, inserts, pops and removes', () => {
    expect(
      edited('doc.a.sort(); let b = doc.a; b.reverse(); doc.b = b; doc.p = doc.a.pop(); doc.a.insert(0, 9); doc.r = doc.a.remove(1); doc.c = [3, 1, 2]; doc.c.sort(|x, y| y - x);', { a: [3, 1, 2] }),
    ).toEqual({ a: [9, 2], b: [3, 2, 1], p: 3, r: 1, c: [3, 2, 1] });
  });

  it('has value semantics: a copy does not change the original', () => {
    expect(edited('let t = doc.tags; t.push("x"); let m = doc.meta; m.a = 2; doc.copy = t;', { tags: [], meta: { a: 1 } })).toEqual({
      tags: [],
      meta: { a: 1 },
      copy: ['x'],
    });
  });

  it('concatenates arrays with +', () => {
    expect(value('[1, 2] + [3]')).toEqual([1, 2, 3]);
  });

  it('reports out-of-bounds indices as Rhai does', () => {
    expect(errorOf('doc.x = doc.a[5];', { a: [1, 2] })).toBe('Array index 5 out of bounds: only 2 elements in array (line 1, position 15)');
    expect(errorOf('doc.x = doc.a[0];', { a: [] })).toBe('Array index 0 out of bounds: array is empty (line 1, position 15)');
  });
});

describe('object maps', () => {
  it('lists keys (sorted) and values, measures and tests membership', () => {
    expect(edited('doc.k = doc.keys(); doc.v = doc.m.values(); doc.n = doc.m.len(); doc.h = "b" in doc.m;', { z: 1, m: { b: 2, a: 1 } })).toEqual({
      z: 1,
      m: { b: 2, a: 1 },
      k: ['m', 'z'],
      v: [1, 2],
      n: 2,
      h: true,
    });
  });

  it('builds map literals with quoted and nested keys', () => {
    expect(value('#{ a: 1, "b c": [1, #{ d: true }], e: #{} }')).toEqual({ a: 1, 'b c': [1, { d: true }], e: {} });
  });

  it('compares maps and arrays by content', () => {
    expect(value('[#{a: 1} == #{a: 1.0}, [1, "a"] == [1, "a"], [1] != [2]]')).toEqual([true, true, true]);
  });

  it('serializes a map to JSON with to_json', () => {
    expect(value('#{ b: 1.0, a: [1, "x", ()] }.to_json()')).toBe('{"a":[1,"x",null],"b":1.0}');
  });
});

describe('script functions', () => {
  it('defines functions used before their definition, with overloading by arity', () => {
    expect(edited('doc.a = add(1, 2); doc.b = add(1); fn add(a, b) { a + b } fn add(a) { a + 100 }')).toEqual({ a: 3, b: 101 });
  });

  it('recurses and returns early', () => {
    expect(edited('fn fib(n) { if n < 2 { return n; } fib(n - 1) + fib(n - 2) } doc.f = fib(15);')).toEqual({ f: 610 });
  });

  it('calls functions in method style with this, writing this back to the receiver', () => {
    expect(
      edited('fn slug() { this.to_lower().split(" ").reduce(|a, w| if a == "" { w } else { a + "-" + w }, "") } fn bump(by) { this += by; } doc.slug = doc.title.slug(); doc.n.bump(5);', {
        title: 'Hello Big World',
        n: 1,
      }),
    ).toEqual({ title: 'Hello Big World', n: 6, slug: 'hello-big-world' });
  });

  it('gives functions no access to outer variables, reporting the call', () => {
    expect(errorOf('fn f() { doc.x = 1; }\nf();')).toBe("Variable not found: doc (line 1, position 10)\nin call to function 'f' (line 2, position 1)");
  });

  it('passes arguments by value', () => {
    expect(edited('fn add(list) { list.push(1); list } doc.b = add(doc.a);', { a: [] })).toEqual({ a: [], b: [1] });
  });
});

describe('lexing', () => {
  it('reads numbers as Rhai does: 1. is a float, 1.abs() a method, x-1 a subtraction', () => {
    expect(value('[1. + 1, 1.abs(), { let x = 5; x-1 }, 1e3, 0b101, 0o17]')).toEqual([2, 1, 4, 1000, 5, 15]);
    expect(typed('1.')).toEqual(['f64', '1.0']);
  });

  it('reads escapes, doubled quotes and line continuations in strings', () => {
    expect(value('"a\\tb\\u00e9\\x41""q\\"\\\n   c"')).toBe('a\tbéA"q"c');
  });
});

describe('function pointers', () => {
  it('calls named functions and curries arguments', () => {
    expect(edited('fn add(a, b) { a + b } let f = Fn("add"); let inc = f.curry(1); doc.a = f.call(2, 3); doc.b = inc.call(41); doc.n = inc.name; doc.c = call(Fn("abs"), -3);')).toEqual({
      a: 5,
      b: 42,
      n: 'add',
      c: 3,
    });
  });

  it('discards print and debug output', () => {
    expect(edited('print("x"); debug(1); doc.ok = true;')).toEqual({ ok: true });
  });

  it('refuses to iterate a map', () => {
    expect(errorOf('for x in doc.m {}', { m: {} })).toBe('For loop expects iterable type (line 1, position 13)');
  });
});

describe('closures', () => {
  it('capture outer variables, shared with the scope', () => {
    expect(edited('let suffix = "!"; doc.t = doc.tags.map(|t| t + suffix); let count = 0; let inc = || count += 1; inc.call(); call(inc); doc.count = count;', { tags: ['a'] })).toEqual({
      tags: ['a'],
      t: ['a!'],
      count: 2,
    });
  });

  it('are called through a variable holding them', () => {
    expect(value('{ let double = |x| x * 2; double(21) }')).toBe(42);
  });
});

describe('context', () => {
  it('is readable with dot and index notation', () => {
    expect(edited('doc.title += context.suffix; doc.k = context["key"]; doc.price = doc.price * context.ratio;', { title: 'a', price: 10 }, { suffix: '!', key: 'v', ratio: 0.5 })).toEqual({
      title: 'a!',
      k: 'v',
      price: 5,
    });
  });

  it('is undefined without a context', () => {
    expect(errorOf('doc.x = context.a;')).toBe('Variable not found: context (line 1, position 9)');
  });

  it('cannot be changed in place by a method', () => {
    expect(errorOf('context.list.push(1);', {}, { list: [] })).toBe("Non-pure method 'push' cannot be called on constant (line 1, position 14)");
  });

  it('is converted once and shared by the documents of a run, none seeing what an earlier script did with it', () => {
    const context = editionContext({ a: [1], m: { x: [1] }, l: [[1], { k: [1] }] });
    const scripts = [
      'let c = context; c.a.push(9); c.m.x = 5;',
      '(if true { context.a } else { [] }).push(9);',
      'context.values()[0].push(9); context.l.get(1).k.push(9); context.m.get("x").clear();',
      'context.l.find(|x| true).push(9); context.l.some(|x| { x.push(9); true });',
      'fn f() { this.push(9) } context.a.f(); (if true { context.a } else { [] }).f();',
      'Fn("push").call(context.a, 9); let p = Fn("append").curry(context.a); p.call([9]); push(context.a, 9);',
      'for x in [context.a] { x.push(9); } doc.a = context.a; doc.a.push(9);',
    ];
    for (const script of scripts) editDocument(compileScript(script, EDITION_COMPILE_OPTIONS), {}, context);
    expect(editDocument(compileScript('doc.c = context;'), {}, context)).toEqual({ kind: 'replace', document: { c: { a: [1], l: [[1], { k: [1] }], m: { x: [1] } } } });
  });
});

describe('values written to the document', () => {
  it('writes a range as its Rust type name and a curried function pointer as its name and curried values, as rhai serde does', () => {
    expect(edited('doc.r = 1..3; doc.i = 1..=3; doc.s = range(1, 9, 2); doc.c = Fn("abs").curry(-1); doc.f = Fn("abs"); doc.j = #{c: Fn("x").curry(2.0), r: 1..3}.to_json();')).toEqual({
      r: 'core::ops::range::Range<i64>',
      i: 'core::ops::range::RangeInclusive<i64>',
      s: 'rhai::packages::iter_basic::StepRange<i64>',
      c: ['abs', -1],
      f: 'abs',
      j: '{"c":["x",2.0],"r":1..3}',
    });
  });
});

describe('values are copies', () => {
  it('changes a copy of a value that is no variable: an if\'s value, a function pointer\'s argument, a script method\'s receiver', () => {
    const doc = { a: [1], m: { x: [1] } };
    expect(edited('(if true { doc.a } else { [] }).push(9); doc.m.values()[0].push(9);', doc)).toEqual(doc);
    expect(edited('Fn("push").call(doc.a, 9); let p = Fn("push").curry(doc.a); p.call(9);', doc)).toEqual(doc);
    expect(edited('fn f() { this.push(9) } (if true { doc.a } else { [] }).f();', doc)).toEqual(doc);
    expect(edited('doc.a.push(9); push(doc.m.x, 9); let p = Fn("push"); doc.b = p.call([], 1);', doc)).toEqual({ a: [1, 9], m: { x: [1] }, b: null });
  });
});
