// Small display helpers shared by the pages.

/** Builds an element: el('td', {class: 'num'}, 'text', child, ...). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else if (name === 'text') node.textContent = value;
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
export function bytes(n) {
  if (typeof n !== 'number') return '—';
  let i = 0;
  while (n >= 1024 && i < UNITS.length - 1) { n /= 1024; i += 1; }
  return `${i === 0 ? n : n.toFixed(1)} ${UNITS[i]}`;
}

export function count(n) {
  return typeof n === 'number' ? n.toLocaleString('en-US') : '—';
}

/** An ISO 8601 duration as Meilisearch writes them (`PT1.234S`, `P1DT2H3M4.5S`) → seconds. */
export function durationSeconds(iso) {
  const m = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:([\d.]+)S)?)?$/.exec(iso ?? '');
  if (m === null) return null;
  return (+(m[1] ?? 0)) * 86400 + (+(m[2] ?? 0)) * 3600 + (+(m[3] ?? 0)) * 60 + (+(m[4] ?? 0));
}

export function duration(iso) {
  const s = durationSeconds(iso);
  if (s === null) return '—';
  if (s < 1) return `${(s * 1000).toFixed(s < 0.01 ? 2 : 0)} ms`;
  if (s < 120) return `${s.toFixed(2)} s`;
  return `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
}

export function when(date) {
  if (!date) return '—';
  const d = new Date(date);
  return Number.isNaN(d.getTime()) ? date : d.toLocaleString();
}

/** A value as short text for a table cell or a hit field. */
export function short(value, max = 240) {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
