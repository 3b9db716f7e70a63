/**
 * Task webhooks (misc-routes.md §9): the ones created through `/webhooks`, persisted in the
 * instance environment, plus the one given on the command line (`--task-webhook-url`), which is
 * listed under the nil uuid, cannot be edited and is never stored (a restart without the option
 * drops it). Validation and error texts follow Meilisearch's `routes/webhooks.rs`.
 */
import { randomUUID } from 'node:crypto';
import { ApiError } from '../errors/api-error.js';
import { MAIN_KEYS } from '../store/dbs.js';
import type { InstanceStore } from '../store/env.js';
import { setField } from '../types/own-record.js';
import { maskSecret } from '../types/settings.js';
import { urlProblem } from '../types/url-problem.js';
import { NIL_UUID } from '../types/uuid-v7.js';

export const CLI_WEBHOOK_UUID = NIL_UUID;
const MAX_WEBHOOKS = 20;
const MAX_HEADERS = 200;

export interface Webhook {
  url: string;
  headers: Record<string, string>;
}

export interface WebhookJson extends Webhook {
  uuid: string;
  isEditable: boolean;
}

/** PATCH semantics: absent → unchanged, `null` → reset (url: error; headers: clear; one header: remove; on creation, one header: empty). */
export interface WebhookChanges {
  url?: string | null;
  headers?: Record<string, string | null> | null;
}

// RFC 7230 `token` characters, which the `http` crate accepts in a header name (any case).
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

export class WebhookStore {
  private readonly cli: Webhook | null;

  constructor(
    private readonly store: InstanceStore,
    cliUrl: string | null,
    cliAuthorization: string | null,
  ) {
    this.cli = cliUrl === null ? null : { url: cliUrl, headers: cliAuthorization === null ? {} : { Authorization: cliAuthorization } };
  }

  /** Every webhook with its uuid and secrets, for delivery. */
  targets(): (Webhook & { uuid: string })[] {
    const saved = Object.entries(this.saved()).map(([uuid, webhook]) => ({ uuid, ...webhook }));
    return [...(this.cli === null ? [] : [{ uuid: CLI_WEBHOOK_UUID, ...this.cli }]), ...saved];
  }

  /** The listing of `GET /webhooks`: sorted by uuid (so the CLI one comes first), secrets masked. */
  list(): WebhookJson[] {
    const all = Object.entries(this.saved()).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    if (this.cli !== null) all.unshift([CLI_WEBHOOK_UUID, this.cli]);
    return all.map(([uuid, webhook]) => view(uuid, webhook));
  }

  get(uuid: string): WebhookJson {
    if (uuid === CLI_WEBHOOK_UUID && this.cli !== null) return view(uuid, this.cli);
    const webhook = this.saved()[uuid];
    if (webhook === undefined) throw notFound(uuid);
    return view(uuid, webhook);
  }

  create(input: WebhookChanges): WebhookJson {
    const uuid = randomUUID();
    if (input.headers != null && Object.keys(input.headers).length > MAX_HEADERS) throw tooManyHeaders(uuid);
    const saved = this.saved();
    if (Object.keys(saved).length >= MAX_WEBHOOKS) {
      throw new ApiError(
        'invalid_webhooks',
        'Defining too many webhooks would crush the server. Please limit the number of webhooks to 20. You may use a third-party proxy server to dispatch events to more than 20 endpoints.',
      );
    }
    if (input.url == null) throw missingUrl(uuid);
    const headers: Record<string, string> = {};
    // header names are the user's: `__proto__` is a name like any other; a `null` value on
    // creation is an empty one (v1.50 reads it with `unwrap_or_default`), where a patch removes it
    for (const [name, value] of Object.entries(input.headers ?? {})) setField(headers, name, value ?? '');
    const webhook = { url: input.url, headers };
    check(uuid, webhook);
    this.save({ ...saved, [uuid]: webhook });
    return view(uuid, webhook);
  }

  update(uuid: string, changes: WebhookChanges): WebhookJson {
    if (uuid === CLI_WEBHOOK_UUID) throw immutable(uuid);
    const saved = this.saved();
    const old = saved[uuid];
    if (old === undefined) throw notFound(uuid);
    if (changes.url === null) throw missingUrl(uuid);
    let headers = { ...old.headers };
    if (changes.headers === null) headers = {};
    for (const [name, value] of Object.entries(changes.headers ?? {})) {
      if (value === null) delete headers[name];
      else setField(headers, name, value);
    }
    if (Object.keys(headers).length > MAX_HEADERS) throw tooManyHeaders(uuid);
    const webhook = { url: changes.url ?? old.url, headers };
    check(uuid, webhook);
    this.save({ ...saved, [uuid]: webhook });
    return view(uuid, webhook);
  }

  delete(uuid: string): void {
    if (uuid === CLI_WEBHOOK_UUID) throw immutable(uuid);
    const saved = this.saved();
    if (saved[uuid] === undefined) throw notFound(uuid);
    delete saved[uuid];
    this.save(saved);
  }

  /** `webhooks.json` of a dump: the runtime webhooks by uuid, secrets in clear (not the command-line one). */
  dumped(): { webhooks: Record<string, Webhook> } {
    return { webhooks: this.saved() };
  }

  /** A dump's runtime webhooks replace the stored ones; entries that are not a URL with string headers are skipped. */
  restore(dumped: unknown): void {
    const entries = (dumped as { webhooks?: unknown } | null)?.webhooks;
    if (entries === null || typeof entries !== 'object') return;
    // built with fromEntries: a key such as `__proto__` stays a key
    const webhooks: Record<string, Webhook> = Object.fromEntries(
      Object.entries(entries as Record<string, unknown>).flatMap(([uuid, value]) => {
        const { url, headers } = (value ?? {}) as { url?: unknown; headers?: unknown };
        if (typeof url !== 'string') return [];
        const named = headers !== null && typeof headers === 'object' ? Object.entries(headers as Record<string, unknown>) : [];
        return [[uuid, { url, headers: Object.fromEntries(named.filter(([, v]) => typeof v === 'string')) as Record<string, string> }]];
      }),
    );
    this.save(webhooks);
  }

  private saved(): Record<string, Webhook> {
    return { ...((this.store.main.get(MAIN_KEYS.webhooks) ?? {}) as Record<string, Webhook>) };
  }

  private save(webhooks: Record<string, Webhook>): void {
    this.store.main.putSync(MAIN_KEYS.webhooks, webhooks);
  }
}

/** Meilisearch's `check_changed`: url present, header count, header names and values, then the URL. */
function check(uuid: string, webhook: Webhook): void {
  if (webhook.url === '') throw missingUrl(uuid);
  if (Object.keys(webhook.headers).length > MAX_HEADERS) throw tooManyHeaders(uuid);
  for (const [name, value] of Object.entries(webhook.headers).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (!HEADER_NAME.test(name)) throw new ApiError('invalid_webhook_headers', `Invalid header name \`${name}\`: invalid HTTP header name`);
    // `HeaderValue::from_str` refuses control characters other than tab.
    if (/[\x00-\x08\x0a-\x1f\x7f]/.test(value)) throw new ApiError('invalid_webhook_headers', `Invalid header value \`${name}\`: failed to parse header value`);
  }
  const problem = urlProblem(webhook.url);
  if (problem !== undefined) throw new ApiError('invalid_webhook_url', `Invalid URL \`${webhook.url}\`: ${problem}`);
}

/** Response shape (uuid, isEditable, url, headers sorted by name) with `Authorization` values masked. */
function view(uuid: string, webhook: Webhook): WebhookJson {
  const headers: Record<string, string> = {};
  for (const name of Object.keys(webhook.headers).sort()) {
    const value = webhook.headers[name]!;
    setField(headers, name, name.toLowerCase() !== 'authorization' ? value : value.startsWith('Bearer ') ? `Bearer ${maskSecret(value.slice(7))}` : maskSecret(value));
  }
  return { uuid, isEditable: uuid !== CLI_WEBHOOK_UUID, url: webhook.url, headers };
}

const notFound = (uuid: string) => new ApiError('webhook_not_found', `Webhook \`${uuid}\` not found.`);
const missingUrl = (uuid: string) => new ApiError('invalid_webhook_url', `The URL for the webhook \`${uuid}\` is missing.`);
const tooManyHeaders = (uuid: string) =>
  new ApiError(
    'invalid_webhook_headers',
    `Too many headers for the webhook \`${uuid}\`. Please limit the number of headers to 200. Hint: To remove an already defined header set its value to \`null\``,
  );
const immutable = (uuid: string) =>
  new ApiError('immutable_webhook', `Webhook \`${uuid}\` is immutable. The webhook defined from the command line cannot be modified using the API.`);
