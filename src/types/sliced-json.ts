/**
 * JSON text parsed a slice at a time, with turns for the event loop between slices: a settings
 * task's 450,000 synonyms (a 9.7 MB member) parsed at once held the thread answering requests
 * ~1-2 s. A large top-level object or array is cut between its members (a scan that follows
 * strings and nesting), each run of members parsed by JSON.parse and added to the value in order,
 * so the value is the one JSON.parse makes of the whole text: same members, same order, the last
 * of duplicate keys at the first one's place, `__proto__` an own member.
 */
import type { TimeSlices } from './time-slices.js';

/** The text of one run of members parsed at once, in UTF-16 units. */
const SLICE_CHARS = 64 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;

/** The end of the run of members starting at `from` (a top-level comma or `end`), past `from + SLICE_CHARS`. */
function runEnd(text: string, from: number, end: number): number {
  let depth = 0;
  let inString = false;
  for (let i = from; i < end; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) depth--;
    else if (c === COMMA && depth === 0 && i - from >= SLICE_CHARS) return i;
  }
  return end;
}

/** Adds the members of `part` to `into` as JSON.parse would have kept them. */
function addMembers(into: Record<string, unknown>, part: Record<string, unknown>): void {
  for (const key of Object.keys(part)) {
    // JSON.parse makes `__proto__` an own member; an assignment would set the prototype
    if (key === '__proto__') Object.defineProperty(into, key, { value: part[key], writable: true, enumerable: true, configurable: true });
    else into[key] = part[key];
  }
}

/** JSON.parse(text) (valid JSON), a top-level object or array longer than a slice parsed a run of members at a time, `slices` pausing between runs. */
export async function parseJsonSliced(text: string, slices: TimeSlices): Promise<unknown> {
  const open = text.trimStart()[0];
  if (text.length <= SLICE_CHARS || (open !== '{' && open !== '[')) return JSON.parse(text);
  const close = open === '{' ? '}' : ']';
  const first = text.indexOf(open) + 1;
  const end = text.lastIndexOf(close);
  const object: Record<string, unknown> = {};
  const array: unknown[] = [];
  for (let from = first; from < end; ) {
    const to = runEnd(text, from, end);
    const part: unknown = JSON.parse(`${open}${text.slice(from, to)}${close}`);
    if (Array.isArray(part)) for (const item of part) array.push(item);
    else addMembers(object, part as Record<string, unknown>);
    from = to + 1;
    await slices.pause();
  }
  return open === '{' ? object : array;
}
