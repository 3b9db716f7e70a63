/**
 * The vector filter `_vectors[.<embedder>[.fragments.<name> | .userProvided | .documentTemplate |
 * .regenerate]] (EXISTS | NOT EXISTS)`. Internal to the parser, called by `parsePrimary`; the
 * `multimodal` feature gate is the caller's business (see `findVectorFilter`).
 *
 * `_vectors` followed by spaces or by `.` commits to this form; after the `.`, every problem is a
 * `failure` with one of Meilisearch's vector-filter messages. Names may be quoted; bare names
 * cannot contain dots.
 */
import type { FilterAst, Token, VectorTarget } from './ast.js';
import type { VectorFilterPart } from './error-kinds.js';
import type { Res, Scan } from './scan.js';
import { parseDottedValueCut, parseDottedValuePart } from './value.js';

const FIXED_PARTS = ['userProvided', 'documentTemplate', 'regenerate'] as const;

/** `vectors_exists = "_vectors" ( WS+ | "." embedder part? WS+ ) ( "EXISTS" | "NOT" WS+ "EXISTS" )` */
export function parseVectorsExists(s: Scan, pos: number): Res<FilterAst> {
  const start = s.spaces(pos);
  // A plain prefix: `_vectorsX EXISTS` falls through to an ordinary EXISTS on `_vectorsX`.
  if (!s.at(start, '_vectors')) return s.mismatch(start);
  const field = s.token(start, start + '_vectors'.length);
  const afterName = field.span.end;

  let embedder: Token | null = null;
  let target: VectorTarget = { kind: 'all' };
  let end = s.spaces1(afterName);
  if (end < 0) {
    if (s.input[afterName] !== '.') return s.mismatch(afterName);
    const embedded = parseEmbedderPath(s, afterName + 1);
    if (!embedded.ok) return embedded;
    ({ embedder, target } = embedded.value);
    end = embedded.pos;
  }

  const node: FilterAst = { type: 'vectorExists', field, embedder, target };
  if (s.at(end, 'EXISTS')) return s.ok(end + 'EXISTS'.length, node);
  if (s.at(end, 'NOT')) {
    const exists = s.spaces1(end + 'NOT'.length);
    if (exists >= 0 && s.at(exists, 'EXISTS')) {
      return s.ok(exists + 'EXISTS'.length, { type: 'not', child: node });
    }
  }
  return s.failure({ kind: 'vectorFilterOperation' }, end);
}

/** After `_vectors.`: the embedder name, an optional part, and the mandatory spaces after them. */
function parseEmbedderPath(s: Scan, pos: number): Res<{ embedder: Token; target: VectorTarget }> {
  if (s.input[pos] === ' ') return s.failure({ kind: 'vectorFilterMissingEmbedder' }, pos, pos + 1);
  const embedder = parseDottedValueCut(s, pos, { kind: 'vectorFilterInvalidEmbedder' });
  if (!embedder.ok) return embedder;

  let end = embedder.pos;
  let target: VectorTarget = { kind: 'all' };
  let previous: VectorFilterPart | null = null;
  if (s.at(end, '.fragments')) {
    const dot = end + '.fragments'.length;
    if (s.input[dot] !== '.') return s.failure({ kind: 'vectorFilterMissingFragment' }, dot);
    const name = parseDottedValueCut(s, dot + 1, { kind: 'vectorFilterInvalidFragment' });
    if (!name.ok) return name;
    target = { kind: 'fragment', name: name.value };
    previous = 'fragments';
    end = name.pos;
  } else {
    const part = FIXED_PARTS.find((candidate) => s.at(end, `.${candidate}`));
    if (part !== undefined) {
      target = { kind: part };
      previous = part;
      end += part.length + 1;
    }
  }

  if (s.input[end] === '.') {
    // Another part: report it (or the lone dot) with the most helpful message.
    const extra = parseDottedValuePart(s, end + 1);
    const kind = { kind: 'vectorFilterUnknownSuffix', previous, value: extra.ok ? extra.value.value : '.' } as const;
    return extra.ok
      ? s.failure(kind, extra.value.span.start, extra.value.span.end)
      : s.failure(kind, end, end + 1);
  }

  const spaces = s.spaces1(end);
  if (spaces < 0) return s.failure({ kind: 'vectorFilterLeftover' }, end);
  return s.ok(spaces, { embedder: embedder.value, target });
}
