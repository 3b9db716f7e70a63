/**
 * The `embedderRequests` of a batch's stats (vectors.md §5.1, milli's `EmbedderStats`): every
 * HTTP attempt to an embedding server counted (retries included), the failed ones, and the last
 * failure's message. Shown only when something was counted.
 */

export interface EmbedderRequests {
  total: number;
  failed: number;
  lastError?: string;
}

export class EmbedderRequestStats {
  total = 0;
  failed = 0;
  lastError: string | undefined = undefined;

  attempt(): void {
    this.total++;
  }

  failure(message: string): void {
    this.failed++;
    this.lastError = message;
  }

  /** Adds another counter's numbers (a worker's answer), keeping the later error. */
  add(other: EmbedderRequests): void {
    this.total += other.total;
    this.failed += other.failed;
    if (other.lastError !== undefined) this.lastError = other.lastError;
  }

  /** The stats entry, or undefined when nothing was counted (the key is then omitted). */
  view(): EmbedderRequests | undefined {
    if (this.total === 0 && this.failed === 0 && this.lastError === undefined) return undefined;
    return this.lastError === undefined ? { total: this.total, failed: this.failed } : { total: this.total, failed: this.failed, lastError: this.lastError };
  }
}
