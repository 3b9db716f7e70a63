/**
 * The build's output directory (build/: the kernels' binaries, the compiled dictionaries), found
 * from this file whether it runs from src/ (vitest) or from dist/src/.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** How many directories up from this file build/ may be. */
const MAX_DEPTH = 5;

/** The nearest directory above this file holding `build/<entry>`, as the path of build/; undefined if none. */
export function findBuildDirectory(entry?: string): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    const build = join(dir, 'build');
    if (existsSync(entry === undefined ? build : join(build, entry))) return build;
    dir = dirname(dir);
  }
  return undefined;
}
