/**
 * The Prometheus text exposition format (version 0.0.4) as the encoder Meilisearch uses writes it:
 * families sorted by name, each with its `# HELP` and `# TYPE` lines, a series' labels sorted by
 * name (the Rust client sorts a metric's label pairs; a histogram bucket's `le` comes last, added by
 * the encoder), its series sorted by label values in that order, label values escaped, and a
 * family without any sample left out (the Rust client prunes empty families: a labelled family
 * appears once it has a series). Pure.
 */

export type MetricType = 'counter' | 'gauge' | 'histogram';

/** One line: `name{labels} value`, `suffix` for a histogram's `_bucket`, `_sum` and `_count`. */
export interface Sample {
  labels?: Record<string, string>;
  value: number;
  suffix?: string;
}

export interface Family {
  name: string;
  help: string;
  type: MetricType;
  samples: Sample[];
}

export const EXPOSITION_CONTENT_TYPE = 'text/plain; version=0.0.4';

/** A series' label pairs as the Rust client holds them: sorted by name, a bucket's `le` last. */
function labelPairs(labels: Record<string, string> | undefined): [string, string][] {
  const rank = (name: string) => (name === 'le' ? 1 : 0);
  return Object.entries(labels ?? {}).sort(([a], [b]) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/** Label values escape `\`, `"` and newlines. */
function labelText(labels: Record<string, string> | undefined): string {
  if (labels === undefined) return '';
  const pairs = labelPairs(labels).map(([name, value]) => `${name}="${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`);
  return `{${pairs.join(',')}}`;
}

function valueText(value: number): string {
  if (value === Number.POSITIVE_INFINITY) return '+Inf';
  if (value === Number.NEGATIVE_INFINITY) return '-Inf';
  return Number.isNaN(value) ? 'NaN' : String(value);
}

/** Orders series by their label values, labels in name order (how the Rust client sorts a family's metrics). */
export function byLabelValues(a: { labels?: Record<string, string> }, b: { labels?: Record<string, string> }): number {
  const left = labelPairs(a.labels).map(([, value]) => value);
  const right = labelPairs(b.labels).map(([, value]) => value);
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    if (left[i] !== right[i]) return left[i]! < right[i]! ? -1 : 1;
  }
  return left.length - right.length;
}

/** The text of `families`; a histogram's lines come as given (its series already in order, each bucket line after line). */
export function exposition(families: readonly Family[]): string {
  return [...families]
    .filter((family) => family.samples.length > 0)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((family) => {
      const lines = [`# HELP ${family.name} ${family.help}`, `# TYPE ${family.name} ${family.type}`];
      const samples = family.type === 'histogram' ? family.samples : [...family.samples].sort(byLabelValues);
      for (const sample of samples) lines.push(`${family.name}${sample.suffix ?? ''}${labelText(sample.labels)} ${valueText(sample.value)}`);
      return `${lines.join('\n')}\n`;
    })
    .join('');
}
