#!/usr/bin/env node
/**
 * Quarry's entry point: options → the instance (instance/open-instance.ts, shared with the library) → HTTP listener.
 * Nothing else lives here.
 * Exit status 2 for bad options (as Meilisearch's argument parser), 1 for refused startups (a bad
 * configuration file among them), 130 after a SIGINT (Ctrl-C), as v1.50.
 */
import { httpsSetup, TlsSetupError, type HttpsSetup } from './http/tls.js';
import { buildApp, warmUpFirstRequests } from './http/app.js';
import { closeGracefully } from './http/transport/graceful-close.js';
import { ConfigError, ConfigFileError, checkMasterKey, loadConfig, startupReport, type Config } from './config/index.js';
import { EXPORT_BUNDLE_HELP, parseExportBundleArgs } from './config/export-bundle-args.js';
import { osErrorMessage } from './errors/os-errors.js';
import { exportBundle } from './indexes/export-bundle.js';
import { openInstance, StartupRefused, type Instance } from './instance/open-instance.js';
import { importProgress } from './logs/import-progress.js';
import { LogHub } from './logs/log-hub.js';
import { scheduleSnapshots } from './snapshots/schedule.js';
import { warmUpSearchPath } from './search/thread-warm-up.js';
import { loadBuildInfo } from './version.js';

function readConfig(): Config | null {
  try {
    const loaded = loadConfig(process.argv.slice(2), process.env, process.cwd());
    if (loaded.kind === 'help') {
      process.stdout.write(loaded.text.endsWith('\n') ? loaded.text : `${loaded.text}\n`);
      return null;
    }
    if (loaded.kind === 'version') {
      // clap's `<name> <version>`, with the version `GET /version` reports
      process.stdout.write(`quarry ${loadBuildInfo().pkgVersion}\n`);
      return null;
    }
    return loaded.config;
  } catch (err) {
    // a bad configuration file fails v1.50's start (anyhow: `Error: `, 1); anything else is clap's refusal (`error: `, 2)
    if (err instanceof ConfigFileError) {
      process.stderr.write(`Error: ${err.message}\n`);
      process.exit(1);
    }
    if (err instanceof ConfigError) {
      process.stderr.write(`error: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
}

/** `quarry export-bundle …`: writes an index as a bundle file, then exits (2 for bad arguments, 1 when the export fails). */
async function exportBundleCommand(argv: string[]): Promise<void> {
  let args;
  try {
    args = parseExportBundleArgs(argv, process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  if (args === 'help') {
    process.stdout.write(EXPORT_BUNDLE_HELP);
    return;
  }
  try {
    const bytes = await exportBundle(args);
    process.stderr.write(`Wrote the bundle of index \`${args.index}\` to ${args.out} (${bytes} bytes).\n`);
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(1);
  }
}

async function main(): Promise<void> {
  if (process.argv[2] === 'export-bundle') return exportBundleCommand(process.argv.slice(3));
  const config = readConfig();
  if (config === null) return;
  const masterKey = checkMasterKey(config);
  if (masterKey.fatal !== null) {
    process.stderr.write(`${masterKey.fatal}\n`);
    process.exit(1);
  }
  let https: HttpsSetup | null;
  try {
    https = httpsSetup(config);
  } catch (err) {
    if (!(err instanceof TlsSetupError)) throw err;
    process.stderr.write(`Error: ${err.message}\n`);
    process.exit(1);
  }

  const build = loadBuildInfo();
  const logs = new LogHub(config.logLevel, config.experimentalLogsMode);
  let instance: Instance;
  try {
    instance = await openInstance({
      config,
      build,
      logs,
      env: process.env,
      // a bar on a terminal, log lines otherwise
      progress: importProgress(process.stderr, (line) => logs.logger.info({ target: 'quarry::import' }, line)),
    });
  } catch (err) {
    if (err instanceof StartupRefused) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    // a db path or dump dir that is a file, or that cannot be written: v1.50's io::Error, not a crash
    const reason = osErrorMessage(err);
    if (reason === null) throw err;
    process.stderr.write(`Error: ${reason}\n`);
    process.exit(1);
  }
  const { queue, scheduler } = instance;
  const app = await buildApp(instance, https);
  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (err) {
    const reason = osErrorMessage(err);
    if (reason === null) throw err;
    // As Meilisearch exits when it cannot bind (or resolve the host): its io::Error.
    process.stderr.write(`Error: ${reason}\n`);
    await instance.close();
    process.exit(1);
  }
  scheduler.start();
  // in the background, after the listen: the first searches of the process then answer warm
  void warmUpFirstRequests().catch((err: unknown) => logs.logger.error({ target: 'quarry::warm_up', err }, 'a body schema does not compile'));
  const warmUp = new AbortController();
  const warmedUp = warmUpSearchPath((err) => logs.logger.debug({ target: 'quarry::warm_up', err }, 'the search warm-up stopped'), warmUp.signal).then(() => {
    if (!warmUp.signal.aborted) logs.logger.debug({ target: 'quarry::warm_up' }, 'search path warmed up');
  });
  const snapshotSchedule =
    config.scheduleSnapshot === null
      ? null
      : scheduleSnapshots(config.scheduleSnapshot, () => {
          try {
            scheduler.wake(queue.register({ kind: { name: 'snapshotCreation' } }));
          } catch (err) {
            logs.logger.error({ target: 'index_scheduler', err }, 'could not register the scheduled snapshot');
          }
        });
  // Like Meilisearch, the startup report goes to stderr; stdout stays free.
  for (const line of startupReport(config, { build, masterKeyWarnings: masterKey.warnings })) process.stderr.write(`${line}\n`);

  // v1.50 exits 130 on Ctrl-C; Quarry first finishes as a SIGTERM does (the batch under way is kept for the next start)
  const shutdown = async (status: number) => {
    snapshotSchedule?.stop();
    await closeGracefully(app);
    // an exit during its asynchronous commit would never end (thread-warm-up.ts)
    warmUp.abort();
    await warmedUp;
    await instance.close();
    process.exit(status);
  };
  process.once('SIGINT', () => void shutdown(130));
  process.once('SIGTERM', () => void shutdown(0));
}

await main();
