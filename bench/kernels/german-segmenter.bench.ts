// Micro-benchmark of the German compound segmenter (src/kernels/german-segmenter.ts), in this
// thread, on synthetic text: about 40,000 characters of German news prose cut into the runs
// between separators (as the tokenizer hands them over), then the same length of long compounds
// only. The trie is built before timing; the runs, characters and starts found are printed.
// Throughput = characters (printed) x hz.
import { bench, describe } from 'vitest';

import { germanWordStarts } from '../../src/kernels/german-segmenter.js';

const PROSE =
  'Die Bundesregierung hat am Mittwoch den Gesetzentwurf zur Modernisierung der Verwaltung beschlossen. ' +
  'Nach Angaben des Innenministeriums sollen Bürgerinnen und Bürger künftig sämtliche Behördengänge ' +
  'online erledigen können, vom Personalausweisantrag bis zur Fahrzeugzulassung. Kritiker bemängeln ' +
  'die fehlende Finanzierungszusage für die Kommunen sowie unklare Datenschutzregelungen. Der ' +
  'Landkreistag forderte Nachbesserungen, insbesondere bei der Schnittstellenstandardisierung. ';
const COMPOUNDS =
  'Donaudampfschifffahrtsgesellschaftskapitän Rindfleischetikettierungsüberwachungsaufgabenübertragungsgesetz ' +
  'Nahrungsmittelunverträglichkeitsdiagnoseverfahren Literaturverwaltungsprogramm Wissensorganisation ';

/** `unit` repeated to about `length` characters, cut into its runs between spaces and punctuation. */
function runs(unit: string, length: number): string[] {
  return unit.repeat(Math.ceil(length / unit.length)).split(/[\s.,]+/).filter((run) => run !== '');
}

const prose = runs(PROSE, 40_000);
const compounds = runs(COMPOUNDS, 40_000);
const characters = (list: string[]): number => list.reduce((sum, run) => sum + run.length, 0);
const starts = (list: string[], segment: (run: string) => number[]): number =>
  list.reduce((sum, run) => sum + segment(run).length, 0);

console.log(
  `german segmenter: prose ${prose.length} runs, ${characters(prose)} chars (${starts(prose, germanWordStarts)} starts); ` +
    `compounds ${compounds.length} runs, ${characters(compounds)} chars (${starts(compounds, germanWordStarts)} starts)`,
);

describe('German word starts', () => {
  bench('prose', () => {
    for (const run of prose) germanWordStarts(run);
  });

  bench('long compounds', () => {
    for (const run of compounds) germanWordStarts(run);
  });
});
