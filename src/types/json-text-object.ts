/**
 * A JSON object read from its text only when it is looked into. A task's settings are stored as
 * the JSON text of the object (tasks/record-codecs.ts): a settings update of 200,000 synonyms
 * cost ~0.13 s to unpack and ~0.18 s to serialise again at each `GET /tasks` that listed it, on
 * the thread answering requests. Read as such an object, the record costs the copy of its text,
 * and an answer written by `stringifyReply` writes that text as it is; anything that looks into
 * it (a property, its keys, a spread, JSON.stringify) sees the parsed object, parsed once.
 * The text must be what `stringifyJson` writes of the object: it stands for it in answers.
 */
import { parseJson } from './json-text.js';
import { written } from './reply-text.js';
import type { JsonObject } from './task.js';

/** The texts of the objects made here (a proxy is no class: this is how one is known). */
const TEXTS = new WeakMap<object, string>();

/** An object with the members of the JSON object `text`, parsed on first look. */
export function jsonTextObject(text: string): JsonObject {
  let parsed: JsonObject | null = null;
  const value = (): JsonObject => (parsed ??= parseJson(text) as JsonObject);
  // JSON.stringify asks for `toJSON` before it looks at the members: an answer takes the text
  // without parsing it, any other serialisation the parsed object
  const toJSON = (): unknown => (TEXTS.has(object) ? written(() => text) : null) ?? value();
  // a change makes the text stale: the object is then only the parsed one
  const changed = (): JsonObject => {
    TEXTS.delete(object);
    return value();
  };
  const object = new Proxy<JsonObject>(
    {},
    {
      get: (_, key) => (key === 'toJSON' ? toJSON : Reflect.get(value(), key)),
      has: (_, key) => Reflect.has(value(), key),
      ownKeys: () => Reflect.ownKeys(value()),
      getOwnPropertyDescriptor: (_, key) => Reflect.getOwnPropertyDescriptor(value(), key),
      defineProperty: (_, key, descriptor) => Reflect.defineProperty(changed(), key, descriptor),
      deleteProperty: (_, key) => Reflect.deleteProperty(changed(), key),
      set: (_, key, member) => Reflect.set(changed(), key, member),
    },
  );
  TEXTS.set(object, text);
  return object;
}

/** The text `value` was made of, when it is a `jsonTextObject`. */
export function jsonTextOf(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null ? TEXTS.get(value) : undefined;
}
