/**
 * The shared movies dataset (../shared/datasets beside the checkout, read in place, never copied),
 * trimmed to the fields the search tests index.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

export interface Movie {
  id: number;
  title: string;
  overview: string;
  genres: string[];
  year: number;
}

const DATASET = new URL('../../../shared/datasets/movies.json.gz', import.meta.url);

/** Every movie of the dataset, in its order. */
export function readMovies(): Movie[] {
  const all = JSON.parse(gunzipSync(readFileSync(DATASET)).toString('utf8')) as Movie[];
  return all.map(({ id, title, overview, genres, year }) => ({ id, title, overview, genres, year }));
}
