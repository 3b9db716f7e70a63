// Calls to the server's own API from the browser. The key lives in this browser only:
// sessionStorage by default, localStorage when "remember" is ticked.
const STORAGE_KEY = 'quarry-dashboard-key';

export class ApiError extends Error {
  constructor(status, body) {
    super(body?.message ?? `HTTP ${status}`);
    this.status = status;
    this.code = body?.code;
  }
}

export function storedKey() {
  return sessionStorage.getItem(STORAGE_KEY) ?? localStorage.getItem(STORAGE_KEY);
}

export function storeKey(key, remember) {
  forgetKey();
  (remember ? localStorage : sessionStorage).setItem(STORAGE_KEY, key);
}

export function forgetKey() {
  sessionStorage.removeItem(STORAGE_KEY);
  localStorage.removeItem(STORAGE_KEY);
}

/** Whether the server was started with a master key (the page is served knowing it). */
export function keyRequired() {
  return document.documentElement.dataset.keyRequired === 'true';
}

/** JSON request to the API; rejects with ApiError on an error answer. */
export async function api(method, path, body, key = storedKey()) {
  const headers = {};
  if (key) headers.Authorization = `Bearer ${key}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  const json = text === '' ? null : JSON.parse(text);
  if (!response.ok) throw new ApiError(response.status, json);
  return json;
}
