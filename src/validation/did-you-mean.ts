/**
 * The "did you mean `x`? " hint of deserr's unknown-field, unknown-parameter and unknown-value
 * messages. Pure; shared by the body and query validators.
 *
 * Rule (deserr `did_you_mean`): no hint for names under 4 bytes; otherwise the closest accepted
 * name within a typo budget that grows with the received name's UTF-8 length (1 for 4–7 bytes,
 * 2 for 8–12, 3 for 13–17, 4 for 18–24, 5 beyond). Ties go to the first accepted name.
 */

import { damerauLevenshtein } from '../types/edit-distance.js';
import { codePointCount } from '../types/utf16.js';

const utf8 = new TextEncoder();

function typoBudget(received: string): number {
  const bytes = utf8.encode(received).length;
  if (bytes <= 3) return 0;
  if (bytes <= 7) return 1;
  if (bytes <= 12) return 2;
  if (bytes <= 17) return 3;
  if (bytes <= 24) return 4;
  return 5;
}

/** `did you mean \`x\`? ` (trailing space included) or the empty string. */
export function didYouMean(received: string, accepted: readonly string[]): string {
  const budget = typoBudget(received);
  if (budget === 0) return '';
  let best: string | undefined;
  let bestDistance = Infinity;
  // a distance is at least the difference of the lengths: a name too long or too short for the
  // budget is passed over without its matrix (n × m, which a megabyte-long key made seconds)
  const length = codePointCount(received);
  for (const candidate of accepted) {
    if (Math.abs(codePointCount(candidate) - length) > budget) continue;
    const distance = damerauLevenshtein(received, candidate);
    if (distance <= budget && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best === undefined ? '' : `did you mean \`${best}\`? `;
}
