/**
 * The Chromium the browser tests drive, so that `npm ci && npm test` needs no browser installed on
 * the machine: playwright-core downloads none of its own. Debian's /usr/bin/chromium when the
 * machine has one, otherwise the headless Chromium that ships inside the @sparticuz/chromium
 * devDependency (brotli-packed in the npm package, unpacked on first use, nothing downloaded).
 *
 * The package unpacks into os.tmpdir() and reuses any `chromium` it finds there, whatever its
 * version and even if an earlier unpack was cut short, so it unpacks here into a fresh directory
 * that is then renamed to one named after the package version: $TMPDIR/quarry-chromium-<version>,
 * in the run's TMPDIR (not the test file's own, removed after it: helpers/file-temp-dir.ts).
 */
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';

const SYSTEM_CHROMIUM = '/usr/bin/chromium';

/** Launches headless Chromium (no sandbox: the tests may run as root) with `args`. */
export async function launchChromium(args: string[]): Promise<Browser> {
  return chromium.launch({ executablePath: await chromiumExecutable(), chromiumSandbox: false, args });
}

/** Debian's Chromium if installed, else the one bundled in @sparticuz/chromium. */
export async function chromiumExecutable(): Promise<string> {
  return existsSync(SYSTEM_CHROMIUM) ? SYSTEM_CHROMIUM : bundledChromium();
}

async function bundledChromium(): Promise<string> {
  // The package's exports hide its package.json: find it from the entry point (build/cjs/index.cjs).
  const packageDir = path.resolve(path.dirname(createRequire(import.meta.url).resolve('@sparticuz/chromium')), '../..');
  const { version } = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as { version: string };
  const dir = path.join(process.env.QUARRY_RUN_TMPDIR ?? tmpdir(), `quarry-chromium-${version}`);
  const executable = path.join(dir, 'chromium');
  if (existsSync(executable)) return executable;

  const staging = mkdtempSync(`${dir}.partial-`);
  const { default: Chromium } = await import('@sparticuz/chromium');
  const savedTmpdir = process.env.TMPDIR;
  process.env.TMPDIR = staging;
  try {
    await Chromium.executablePath(path.join(packageDir, 'bin'));
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  } finally {
    if (savedTmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmpdir;
  }
  try {
    renameSync(staging, dir);
  } catch (error) {
    // Another run unpacked the same version first: use its copy.
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(executable)) throw error;
  }
  return executable;
}
