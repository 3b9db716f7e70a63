/**
 * Generated JSON values and their text. Some of what the fuzzer sends cannot go through
 * JSON.stringify: numerals beyond doubles (2^64, 1e400) must keep their digits, and nesting
 * 100,000 levels deep would overflow its stack. Such parts are `Raw` text, pasted as is.
 */
export class Raw {
  constructor(readonly text: string) {}

  /** A short form for reports (fast-check prints values with toString). */
  toString(): string {
    return this.text.length <= 80 ? `Raw(${this.text})` : `Raw(${this.text.slice(0, 60)}… ${this.text.length} chars)`;
  }
}

export type Json = null | boolean | number | string | Raw | readonly Json[] | { readonly [key: string]: Json };

export function render(value: Json): string {
  if (value instanceof Raw) return value.text;
  if (Array.isArray(value)) return `[${value.map(render).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}:${render(item)}`).join(',')}}`;
  }
  // JSON.stringify escapes lone surrogates (\ud800) and prints NaN and Infinity as null.
  return JSON.stringify(value);
}
