/**
 * A JSON object kept as JSON text, parsed when first read: as the text of each of its members,
 * each parsed when it is first read (`jsonTextObject`), or as its whole text (`jsonTextValue`).
 * A task's settings are stored the first way (tasks/record-codecs.ts): a settings update of
 * 200,000 synonyms cost ~0.13 s to unpack and ~0.18 s to serialise again at each `GET /tasks` that
 * listed it, on the thread answering requests. Read as such an object, the record costs the copy
 * of its texts, and an answer written by `stringifyReply` writes those texts as they are. It is a
 * plain object whose members are accessors: its keys, a member, a spread, a structured clone or
 * JSON.stringify see the parsed values. A member set, deleted or added makes it an ordinary object
 * again. A member's text must be what `stringifyJson` writes of its value: it stands for it in answers.
 *
 * An edition's `context` is stored the second way: its keys are the caller's, and a closure and
 * an accessor per member cost 2.3 s for 900,000 keys. It is a Proxy over the object parsed at the
 * first look (keys, a member, a spread, JSON.stringify; its prototype is Object's without one);
 * an answer writes its text while it is unchanged (no member set, deleted or defined; a change
 * inside a member is not seen). A Proxy cannot be structured-cloned: it crosses threads as its
 * text (`jsonTextOf`).
 */
import { parseJson, stringifyJson } from './json-text.js';
import { written } from './reply-text.js';
import type { JsonObject } from './task.js';

/** The key of Node's `util.inspect.custom`, without importing Node's util (the browser build has these modules). */
const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/** A member's key and the JSON text of its value. */
export type TextMember = readonly [key: string, text: string];

/** The members of the objects made here, and the getters that stand for them while unchanged. */
const MADE = new WeakMap<object, { members: readonly TextMember[]; getters: readonly (() => unknown)[] }>();

/** Whether `object`, made here, still has its members, each unread or read only. */
function unchanged(object: object): readonly TextMember[] | undefined {
  const made = MADE.get(object);
  if (made === undefined) return undefined;
  const keys = Object.keys(object);
  if (keys.length !== made.members.length) return undefined;
  for (let i = 0; i < keys.length; i++) {
    if (keys[i] !== made.members[i]![0] || Object.getOwnPropertyDescriptor(object, keys[i]!)?.get !== made.getters[i]) return undefined;
  }
  return made.members;
}

/** An object with the members `members`, each parsed (`parseJson`: 64-bit integers kept) on first read. */
export function jsonTextObject(members: readonly TextMember[]): JsonObject {
  const object: JsonObject = {};
  const getters = members.map(([key, text]) => {
    let parsed: { value: unknown } | null = null;
    const get = (): unknown => (parsed ??= { value: parseJson(text) }).value;
    // set: an ordinary member from then on (the object no longer stands for its texts)
    const set = (value: unknown): void => void Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
    Object.defineProperty(object, key, { get, set, enumerable: true, configurable: true });
    return get;
  });
  // JSON.stringify asks for `toJSON` before it reads the members: an answer takes the texts
  // without parsing them, any other serialisation the parsed members
  Object.defineProperty(object, 'toJSON', { value: () => (unchanged(object) === undefined ? object : (written(() => jsonTextOf(object)!) ?? object)) });
  // Node's console shows the members' values, not `[Getter/Setter]` (a library caller's task)
  Object.defineProperty(object, INSPECT, { value: () => ({ ...object }) });
  MADE.set(object, { members, getters });
  return object;
}

/** The texts of the `jsonTextValue`s, while unchanged. */
const WHOLE = new WeakMap<object, string>();

/** An object standing for the JSON object `text`, parsed (`parseJson`) at the first look. */
export function jsonTextValue(text: string): JsonObject {
  let parsed: JsonObject | null = null;
  const read = (): JsonObject => (parsed ??= parseJson(text) as JsonObject);
  const toJSON = () => written(() => text) ?? read();
  // the target is never seen through the Proxy; Node's inspect reads it directly, and finds this
  const target = Object.defineProperty({}, INSPECT, { value: () => read(), configurable: true });
  const changed = (): JsonObject => {
    WHOLE.delete(proxy);
    return read();
  };
  const proxy: JsonObject = new Proxy(target, {
    get: (_, key) => (key === 'toJSON' && WHOLE.has(proxy) ? toJSON : Reflect.get(read(), key)),
    has: (_, key) => Reflect.has(read(), key),
    ownKeys: () => Reflect.ownKeys(read()),
    getOwnPropertyDescriptor: (_, key) => Reflect.getOwnPropertyDescriptor(read(), key),
    // what JSON.parse makes: an answer's writer asks before it writes (streamed-answer.ts)
    getPrototypeOf: () => (parsed === null ? Object.prototype : Reflect.getPrototypeOf(parsed)),
    set: (_, key, value) => Reflect.set(changed(), key, value),
    deleteProperty: (_, key) => Reflect.deleteProperty(changed(), key),
    defineProperty: (_, key, descriptor) => Reflect.defineProperty(changed(), key, descriptor),
    // a Proxy may be frozen only with its target, whose keys it must then list: refused
    preventExtensions: () => false,
  });
  WHOLE.set(proxy, text);
  return proxy;
}

/** The JSON text of `value` when it is a `jsonTextObject` still holding only its texts, or an unchanged `jsonTextValue`. */
export function jsonTextOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const whole = WHOLE.get(value);
  if (whole !== undefined) return whole;
  const members = unchanged(value);
  return members === undefined ? undefined : `{${members.map(([key, text]) => `${JSON.stringify(key)}:${text}`).join(',')}}`;
}

/** The length of `jsonTextOf(value)`, without writing it (an answer's look for long text). */
export function jsonTextLength(value: unknown): number | undefined {
  const whole = typeof value === 'object' && value !== null ? WHOLE.get(value) : undefined;
  if (whole !== undefined) return whole.length;
  const members = typeof value === 'object' && value !== null ? unchanged(value) : undefined;
  // braces, commas, and each member's quoted key and colon
  return members?.reduce((length, [key, text]) => length + JSON.stringify(key).length + 1 + text.length, Math.max(2, members.length + 1));
}

/** The members of `object` as texts (`stringifyJson`): those it was made of when it is an unchanged `jsonTextObject`. */
export function textMembers(object: JsonObject): TextMember[] {
  const members = unchanged(object);
  if (members !== undefined) return [...members];
  // JSON.stringify leaves out what it cannot write
  return Object.entries(object).flatMap(([key, value]) => (value === undefined || typeof value === 'function' || typeof value === 'symbol' ? [] : [[key, stringifyJson(value)] as const]));
}
