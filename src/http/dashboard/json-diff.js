// The differences between two JSON values, by path: objects compared key by key, arrays and
// scalars as whole values (a reordered rankingRules is a change).

/** [{ path, from, to }] where `from` or `to` is undefined for an added or removed key. */
export function jsonDiff(from, to, path = []) {
  if (isObject(from) && isObject(to)) {
    const keys = [...new Set([...Object.keys(from), ...Object.keys(to)])];
    return keys.flatMap((key) => jsonDiff(from[key], to[key], [...path, key]));
  }
  return JSON.stringify(from) === JSON.stringify(to) ? [] : [{ path: path.join('.'), from, to }];
}

function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
