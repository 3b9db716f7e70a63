/**
 * Where every log record goes: the server's pino logger writes JSON lines here, and the hub
 * forwards each record to standard error (if the stderr filter passes it; human-readable, or a
 * JSON line shaped as v1.50's tracing-subscriber writes it with `--experimental-logs-mode JSON`)
 * and to the one live
 * `/logs/stream` subscriber (if its filter passes it). The logger's own level follows the most
 * verbose consumer, so records nobody wants are never serialised.
 */
import { Writable } from 'node:stream';
import pino, { type Logger } from 'pino';
import { ApiError } from '../errors/api-error.js';
import { LEVEL_RANK, accepts, lowestRank, parseTarget, type LogFilter } from './targets.js';

/** The modes a stream serves (`profile`, v1.50's span trace, is refused by the route: no spans here). */
export type StreamMode = 'human' | 'json';

interface Subscriber {
  filter: LogFilter;
  mode: StreamMode;
  write: (chunk: string) => void;
  close: () => void;
}

const RANK_NAMES: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'ERROR' };
const PINO_LEVELS: [number, string][] = [
  [LEVEL_RANK.trace, 'trace'],
  [LEVEL_RANK.debug, 'debug'],
  [LEVEL_RANK.info, 'info'],
  [LEVEL_RANK.warn, 'warn'],
  [LEVEL_RANK.error, 'error'],
];

interface Record_ {
  level: number;
  time: number;
  msg?: string;
  target?: string;
  [key: string]: unknown;
}

/** A pino time (ms) as tracing-subscriber's `SystemTime` writes it: microseconds, UTC. */
function microsecondTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, -1)}000Z`;
}

/**
 * A record as tracing-subscriber's JSON formatter writes one (v1.50's JSON logs, on stderr and
 * `/logs/stream`): `timestamp`, `level`, the event's `fields` (its message among them), `target`.
 */
function jsonLine(record: Record_): string {
  const { level, time, msg, target, pid: _pid, hostname: _host, ...fields } = record;
  const message = msg === undefined ? {} : { message: msg };
  return `${JSON.stringify({ timestamp: microsecondTime(time), level: RANK_NAMES[level] ?? 'INFO', fields: { ...message, ...fields }, target: target ?? 'meilisearch' })}\n`;
}

/**
 * An event's other field as tracing-subscriber's default formatter writes it after the message:
 * ` key=value`, a string quoted as Rust's `Debug` quotes it, a number or boolean bare; an error
 * (pino's serialised `err`) as `error=<its message>`, as v1.50 records errors, followed by its own
 * fields (a refused address…) but its type and stack; anything else as JSON.
 */
function humanField(key: string, value: unknown): string {
  if (key === 'err' && value !== null && typeof value === 'object' && typeof (value as { message?: unknown }).message === 'string') {
    const { type: _type, message, stack: _stack, ...own } = value as { type?: unknown; message: string; stack?: unknown };
    let text = ` error=${message}`;
    for (const [name, inner] of Object.entries(own)) text += humanField(name, inner);
    return text;
  }
  if (typeof value === 'number' || typeof value === 'boolean') return ` ${key}=${value}`;
  return ` ${key}=${JSON.stringify(value)}`;
}

/** A record as tracing-subscriber's default (full) formatter writes one: time, level, target, message, ` key=value` fields. */
function humanLine(record: Record_): string {
  const { level, time, msg, target, pid: _pid, hostname: _host, ...fields } = record;
  let extra = '';
  for (const [key, value] of Object.entries(fields)) extra += humanField(key, value);
  return `${microsecondTime(time)} ${(RANK_NAMES[level] ?? 'INFO').padStart(5)} ${target ?? 'meilisearch'}: ${msg ?? ''}${extra}\n`;
}

export class LogHub {
  private stderrFilter: LogFilter;
  private subscriber: Subscriber | null = null;
  readonly logger: Logger;

  /** `stderrMode`: `--experimental-logs-mode`, human-readable lines or one JSON record a line */
  constructor(
    initialLevel: string,
    private readonly stderrMode: 'HUMAN' | 'JSON' = 'HUMAN',
  ) {
    this.stderrFilter = parseTarget(initialLevel.toLowerCase());
    const hub = this;
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        hub.dispatch(chunk.toString());
        done();
      },
    });
    // v1.50's target for what its HTTP layer logs (the requests); other records name theirs
    this.logger = pino({ level: 'info', base: { target: 'meilisearch' } }, destination);
    this.adjustLevel();
  }

  private dispatch(text: string): void {
    for (const line of text.split('\n')) {
      if (line === '') continue;
      let record: Record_;
      try {
        record = JSON.parse(line) as Record_;
      } catch {
        continue;
      }
      const target = record.target ?? 'meilisearch';
      if (accepts(this.stderrFilter, target, record.level)) process.stderr.write(this.stderrMode === 'JSON' ? jsonLine(record) : humanLine(record));
      const sub = this.subscriber;
      if (sub !== null && accepts(sub.filter, target, record.level)) sub.write(sub.mode === 'human' ? humanLine(record) : jsonLine(record));
    }
  }

  private adjustLevel(): void {
    const ranks = [lowestRank(this.stderrFilter)];
    if (this.subscriber !== null) ranks.push(lowestRank(this.subscriber.filter));
    const lowest = Math.min(...ranks);
    const level = PINO_LEVELS.find(([rank]) => rank >= lowest)?.[1] ?? 'silent';
    this.logger.level = lowest >= LEVEL_RANK.off ? 'silent' : level;
  }

  /** Per-request lines cost a lot at high rates: emit them only for a live stream or a debugging stderr. */
  wantsRequestLogs(): boolean {
    return this.subscriber !== null || lowestRank(this.stderrFilter) <= LEVEL_RANK.debug;
  }

  /** `POST /logs/stderr`. */
  setStderrFilter(filter: LogFilter): void {
    this.stderrFilter = filter;
    this.adjustLevel();
  }

  /** `POST /logs/stream`: claims the single slot or throws `bad_request`. */
  subscribe(filter: LogFilter, mode: StreamMode, write: (chunk: string) => void, close: () => void): () => void {
    if (this.subscriber !== null) {
      throw new ApiError('bad_request', 'The `/logs/stream` route is currently in use by someone else.');
    }
    const subscriber: Subscriber = { filter, mode, write, close };
    this.subscriber = subscriber;
    this.adjustLevel();
    return () => {
      if (this.subscriber !== subscriber) return;
      this.subscriber = null;
      this.adjustLevel();
    };
  }

  /** `DELETE /logs/stream`: ends the live stream, if any. */
  closeStream(): void {
    const sub = this.subscriber;
    this.subscriber = null;
    this.adjustLevel();
    sub?.close();
  }
}
