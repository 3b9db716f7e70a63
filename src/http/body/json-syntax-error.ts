/**
 * Describes why a text is not valid JSON in the words of serde_json, which Meilisearch's
 * `malformed_payload` messages quote (`EOF while parsing an object at line 1 column 22`).
 * Only called after JSON.parse has failed, so it favours clarity over speed.
 * Columns are 1-based and count bytes of the line as serde_json does (at EOF: the line's length).
 */

class SyntaxFailure extends Error {}

export function describeJsonSyntaxError(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  let pos = 0;
  let depth = 0;

  const fail = (msg: string, at: number): never => {
    let line = 1;
    let lineStart = 0;
    const end = Math.min(at, bytes.length);
    for (let i = 0; i < end; i++) {
      if (bytes[i] === 0x0a) {
        line++;
        lineStart = i + 1;
      }
    }
    const column = at >= bytes.length ? bytes.length - lineStart : at - lineStart + 1;
    throw new SyntaxFailure(`${msg} at line ${line} column ${column}`);
  };
  const isWs = (b: number | undefined) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;
  const skipWs = () => {
    while (pos < bytes.length && isWs(bytes[pos])) pos++;
  };

  const parseString = () => {
    pos++; // opening quote
    for (;;) {
      if (pos >= bytes.length) fail('EOF while parsing a string', pos);
      const b = bytes[pos]!;
      if (b === 0x22) {
        pos++;
        return;
      }
      if (b < 0x20) fail('control character (\\u0000-\\u001F) found while parsing a string', pos);
      if (b === 0x5c) {
        pos++;
        if (pos >= bytes.length) fail('EOF while parsing a string', pos);
        const e = bytes[pos]!;
        if (e === 0x75) {
          for (let i = 1; i <= 4; i++) {
            if (pos + i >= bytes.length) fail('EOF while parsing a string', bytes.length);
            if (!/[0-9a-fA-F]/.test(String.fromCharCode(bytes[pos + i]!))) fail('invalid escape', pos + i);
          }
          pos += 5;
          continue;
        }
        if (!'"\\/bfnrt'.includes(String.fromCharCode(e))) fail('invalid escape', pos);
      }
      pos++;
    }
  };

  const parseNumber = () => {
    const start = pos;
    if (bytes[pos] === 0x2d) pos++;
    const digit = (b: number | undefined) => b !== undefined && b >= 0x30 && b <= 0x39;
    if (pos >= bytes.length) fail('EOF while parsing a value', pos);
    if (!digit(bytes[pos])) fail('invalid number', pos);
    if (bytes[pos] === 0x30 && digit(bytes[pos + 1])) fail('invalid number', pos + 1);
    while (digit(bytes[pos])) pos++;
    if (bytes[pos] === 0x2e) {
      pos++;
      if (pos >= bytes.length) fail('EOF while parsing a value', pos);
      if (!digit(bytes[pos])) fail('invalid number', pos);
      while (digit(bytes[pos])) pos++;
    }
    if (bytes[pos] === 0x65 || bytes[pos] === 0x45) {
      pos++;
      if (bytes[pos] === 0x2b || bytes[pos] === 0x2d) pos++;
      if (pos >= bytes.length) fail('EOF while parsing a value', pos);
      if (!digit(bytes[pos])) fail('invalid number', pos);
      while (digit(bytes[pos])) pos++;
    }
    if (pos === start) fail('invalid number', pos);
  };

  const parseIdent = (word: string) => {
    for (let i = 0; i < word.length; i++) {
      if (pos >= bytes.length) fail('EOF while parsing a value', pos);
      if (bytes[pos] !== word.charCodeAt(i)) fail('expected ident', pos);
      pos++;
    }
  };

  const parseValue = (): void => {
    skipWs();
    if (pos >= bytes.length) fail('EOF while parsing a value', pos);
    const b = bytes[pos]!;
    if (b === 0x7b) return parseObject();
    if (b === 0x5b) return parseArray();
    if (b === 0x22) return parseString();
    if (b === 0x74) return parseIdent('true');
    if (b === 0x66) return parseIdent('false');
    if (b === 0x6e) return parseIdent('null');
    if (b === 0x2d || (b >= 0x30 && b <= 0x39)) return parseNumber();
    fail('expected value', pos);
  };

  const enter = () => {
    if (++depth > 128) fail('recursion limit exceeded', pos);
  };

  const parseArray = () => {
    enter();
    pos++;
    skipWs();
    if (pos >= bytes.length) fail('EOF while parsing a list', pos);
    if (bytes[pos] === 0x5d) {
      pos++;
      depth--;
      return;
    }
    for (;;) {
      parseValue();
      skipWs();
      if (pos >= bytes.length) fail('EOF while parsing a list', pos);
      const b = bytes[pos];
      if (b === 0x5d) {
        pos++;
        depth--;
        return;
      }
      if (b !== 0x2c) fail('expected `,` or `]`', pos);
      pos++;
      skipWs();
      if (bytes[pos] === 0x5d) fail('trailing comma', pos);
    }
  };

  const parseObject = () => {
    enter();
    pos++;
    skipWs();
    if (pos >= bytes.length) fail('EOF while parsing an object', pos);
    if (bytes[pos] === 0x7d) {
      pos++;
      depth--;
      return;
    }
    for (;;) {
      skipWs();
      if (pos >= bytes.length) fail('EOF while parsing an object', pos);
      if (bytes[pos] === 0x7d) fail('trailing comma', pos);
      if (bytes[pos] !== 0x22) fail('key must be a string', pos);
      parseString();
      skipWs();
      if (pos >= bytes.length) fail('EOF while parsing an object', pos);
      if (bytes[pos] !== 0x3a) fail('expected `:`', pos);
      pos++;
      parseValue();
      skipWs();
      if (pos >= bytes.length) fail('EOF while parsing an object', pos);
      const b = bytes[pos];
      if (b === 0x7d) {
        pos++;
        depth--;
        return;
      }
      if (b !== 0x2c) fail('expected `,` or `}`', pos);
      pos++;
    }
  };

  try {
    parseValue();
    skipWs();
    if (pos < bytes.length) fail('trailing characters', pos);
  } catch (err) {
    if (err instanceof SyntaxFailure) return err.message;
    throw err;
  }
  // JSON.parse refused something this scanner accepts (e.g. invalid UTF-8): say so plainly.
  return 'invalid unicode code point';
}
