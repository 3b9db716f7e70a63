/**
 * A record keyed by what users name: field names, facet values, index uids. It has no
 * prototype, so `constructor` or `toString` read as absent until set and `__proto__` is set as a
 * key like any other, instead of reading Object.prototype's members or setting the prototype
 * (which gave a field named `constructor` the count "function Object() { [native code] }1").
 */
export function ownRecord<V>(from?: Readonly<Record<string, V>>): Record<string, V> {
  const record = Object.create(null) as Record<string, V>;
  return from === undefined ? record : Object.assign(record, from);
}

/**
 * Sets `key` of a plain object built from a document's keys as an own field: an assignment of
 * `__proto__` would set the object's prototype instead, losing the field (Meilisearch keeps it as
 * any other field).
 */
export function setField(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/**
 * `record[key]` when it is the record's own entry: on a plain object, a name such as
 * `constructor` or `toString` would read Object.prototype's member.
 */
export function ownValue<V>(record: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
