/**
 * The instance's storage format as the scheduler sees it while it runs (store/env.ts says what the
 * formats are): a database opened with `--upgrade-db` stays in its older format until its
 * `upgradeDatabase` task succeeds, and only then is recorded as the current one.
 */
import { formatVersion, recordStoreFormat, storeFormat, STORE_FORMAT_VERSION, type InstanceStore } from './env.js';

export class StorageFormat {
  constructor(
    private readonly store: InstanceStore,
    /** Quarry's version, recorded with the format */
    private readonly pkgVersion: string,
  ) {}

  /** The format the instance store records. */
  get format(): number {
    return storeFormat(this.store);
  }

  get upToDate(): boolean {
    return this.format === STORE_FORMAT_VERSION;
  }

  /** `[from, to]` of an upgrade from the recorded format, as the `upgradeDatabase` task shows them. */
  upgradeVersions(): [from: [number, number, number], to: [number, number, number]] {
    return [formatVersion(this.format), formatVersion(STORE_FORMAT_VERSION)];
  }

  /** Records the current format: the last write of an upgrade, inside its commit. */
  markUpgraded(): void {
    recordStoreFormat(this.store, STORE_FORMAT_VERSION, this.pkgVersion);
  }
}
