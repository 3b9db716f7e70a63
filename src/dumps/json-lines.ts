/**
 * Reads a dump's JSON-lines file lazily, one parsed value a line (blank lines skipped), so a
 * queue of millions of lines never sits in memory. A missing file reads as empty.
 */
import { createReadStream, existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseJson } from '../types/json-text.js';
import type { JsonObject } from '../types/task.js';

export async function* jsonLines(file: string): AsyncGenerator<JsonObject> {
  if (!existsSync(file)) return;
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of lines) if (line.trim() !== '') yield parseJson(line) as JsonObject;
}
