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
