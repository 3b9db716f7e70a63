#!/usr/bin/env node
/**
 * Quarry's entry point: options → the instance (instance/open-instance.ts, shared with the library) → HTTP listener.
 * Nothing else lives here.
 * Exit status 2 for bad options (as Meilisearch's argument parser), 1 for refused startups.
 */
import { buildApp } from './http/app.js';
import { ConfigError, checkMasterKey, loadConfig, startupReport, type Config } from './config/index.js';
import { openInstance, StartupRefused, type Instance } from './instance/open-instance.js';
import { importProgress } from './logs/import-progress.js';
import { LogHub } from './logs/log-hub.js';
import { loadBuildInfo } from './version.js';

function readConfig(): Config | null {
  try {
    const loaded = loadConfig(process.argv.slice(2), process.env, process.cwd());
    if (loaded.kind === 'help') {
      process.stdout.write(loaded.text.endsWith('\n') ? loaded.text : `${loaded.text}\n`);
      return null;
    }
    return loaded.config;
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
}

async function main(): Promise<void> {
  const config = readConfig();
  if (config === null) return;
  const masterKey = checkMasterKey(config);
  if (masterKey.fatal !== null) {
    process.stderr.write(`${masterKey.fatal}\n`);
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
    throw err;
  }
  const { queue, scheduler } = instance;
  const app = await buildApp(instance);
  await app.listen({ host: config.host, port: config.port });
  scheduler.start();
  // `--schedule-snapshot`: the first snapshot one full interval after start, then every interval.
  const snapshotTimer =
    config.scheduleSnapshot === null
      ? null
      : setInterval(() => {
          try {
            scheduler.wake(queue.register({ kind: { name: 'snapshotCreation' } }));
          } catch (err) {
            logs.logger.error({ target: 'index_scheduler', err }, 'could not register the scheduled snapshot');
          }
        }, config.scheduleSnapshot * 1000);
  // Like Meilisearch, the startup report goes to stderr; stdout stays free.
  for (const line of startupReport(config, { build, masterKeyWarnings: masterKey.warnings })) process.stderr.write(`${line}\n`);

  const shutdown = async () => {
    if (snapshotTimer !== null) clearInterval(snapshotTimer);
    await app.close();
    await instance.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown());
  process.once('SIGTERM', () => void shutdown());
}

await main();
