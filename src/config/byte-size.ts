/**
 * Byte sizes as Meilisearch's options accept them (`http_payload_size_limit`, `max_indexing_memory`, …).
 *
 * Callers: the option codecs in values.ts (CLI, environment and TOML strings).
 * Grammar, case-insensitive, surrounding whitespace ignored:
 *
 *   size  := digits [ "." digits ] " "* [ unit ]
 *   unit  := "B" | prefix [ "i" ] [ "B" ]        prefix := "K" | "M" | "G" | "T"
 *
 * Without "i" a prefix is decimal (KB = 1000), with it binary (KiB = 1024). "b" is bytes, never bits
 * ("2Gb" = 2 GB), as the reference asks. A fractional result is rounded up to a whole byte, like the
 * byte_unit crate Meilisearch parses with.
 * Invariant: the result is a non-negative safe integer; anything else throws a RangeError whose message
 * is the reason only (the caller adds which option it was).
 */

const GRAMMAR = /^(\d+)(?:\.(\d+))? *(b|[kmgt]i?b?)?$/i;

const DECIMAL: Record<string, bigint> = { k: 1000n, m: 1000n ** 2n, g: 1000n ** 3n, t: 1000n ** 4n };
const BINARY: Record<string, bigint> = { k: 1024n, m: 1024n ** 2n, g: 1024n ** 3n, t: 1024n ** 4n };

/** Parses `"100 MB"`, `"2Gb"`, `"1.5 KiB"` or `"1073741824"` into a number of bytes. */
export function parseByteSize(input: string): number {
  const match = GRAMMAR.exec(input.trim());
  if (match === null) {
    throw new RangeError(
      'expected a number of bytes, optionally followed by a unit (B, KB, MB, GB, TB, KiB, MiB, GiB, TiB), e.g. "100 MB", "2GiB" or "1048576"',
    );
  }
  const whole = match[1]!;
  const fraction = match[2] ?? '';
  const lower = (match[3] ?? 'b').toLowerCase();
  const multiplier = lower === 'b' ? 1n : (lower.includes('i') ? BINARY : DECIMAL)[lower[0]!]!;
  // Exact arithmetic in BigInt: "1.1 GB" must not pick up binary floating-point noise.
  const scale = 10n ** BigInt(fraction.length);
  const scaled = BigInt(whole + fraction) * multiplier;
  const bytes = (scaled + scale - 1n) / scale;
  if (bytes > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError('the size is too large');
  return Number(bytes);
}
