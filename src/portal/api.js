// The API as the portal calls it: the session cookie, the chosen workspace in X-Workspace-Id, and
// every refusal turned into an ApiError carrying the spec's {error:{code,message}}.
const BASE = 'api/v1';
const SESSION = 'pce.portal.session';

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** The signed-in person and their workspaces, kept from the sign-in answer (the cookie itself is httpOnly). */
export function session() {
  try {
    return JSON.parse(localStorage.getItem(SESSION) ?? 'null');
  } catch {
    return null;
  }
}

export function keepSession(value) {
  if (value === null) localStorage.removeItem(SESSION);
  else localStorage.setItem(SESSION, JSON.stringify(value));
}

export function workspaceId() {
  return session()?.workspaceId ?? null;
}

/** An address under the API for a plain link or an image, which cannot send headers: the workspace rides in the query. */
export function apiUrl(path, query = {}) {
  const params = new URLSearchParams(Object.entries(query).filter(([, v]) => v !== undefined && v !== null && v !== ''));
  const ws = workspaceId();
  if (ws) params.set('workspace', ws);
  return `${BASE}${path}?${params}`;
}

const listeners = new Set();
/** Called when the API says the session is gone, so the portal can send the person to sign in. */
export function onSignedOut(fn) {
  listeners.add(fn);
}

async function refusal(res) {
  const text = await res.text();
  try {
    const { error } = JSON.parse(text);
    return new ApiError(res.status, error.code, error.message);
  } catch {
    return new ApiError(res.status, 'http_' + res.status, text || res.statusText);
  }
}

export async function api(method, path, { body, query } = {}) {
  const headers = { accept: 'application/json' };
  const ws = workspaceId();
  if (ws) headers['x-workspace-id'] = ws;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const q = query ? '?' + new URLSearchParams(Object.entries(query).filter(([, v]) => v !== undefined && v !== null && v !== '')) : '';
  const res = await fetch(`${BASE}${path}${q}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin' });
  if (!res.ok) {
    const err = await refusal(res);
    // A refused sign-in is a 401 too; only a session that was held has ended.
    if (res.status === 401 && session() !== null) for (const fn of listeners) fn(err);
    throw err;
  }
  if (res.status === 204) return null;
  return res.json();
}

/**
 * A file upload with progress: `onSent` gets the share of bytes sent; the promise settles with the
 * answer once the service has read, judged and stored the file.
 */
export function upload(path, file, { query, onSent }) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const q = new URLSearchParams(Object.entries(query ?? {}).filter(([, v]) => v));
    xhr.open('POST', `${BASE}${path}?${q}`);
    const ws = workspaceId();
    if (ws) xhr.setRequestHeader('x-workspace-id', ws);
    xhr.upload.onprogress = (e) => e.lengthComputable && onSent(e.loaded / e.total);
    xhr.upload.onload = () => onSent(1);
    xhr.onerror = () => reject(new ApiError(0, 'network', 'the upload did not reach the service; check the connection and try again'));
    xhr.onload = () => {
      let parsed = null;
      try {
        parsed = JSON.parse(xhr.responseText);
      } catch {
        /* not JSON: reported below */
      }
      if (xhr.status >= 200 && xhr.status < 300 && parsed) return resolve(parsed);
      if (xhr.status === 401 && session() !== null) for (const fn of listeners) fn(parsed?.error);
      reject(new ApiError(xhr.status, parsed?.error?.code ?? 'http_' + xhr.status, parsed?.error?.message ?? xhr.statusText));
    };
    const form = new FormData();
    form.append('file', file);
    xhr.send(form);
  });
}

/** Whether a refusal means the route is not in this service (a part of the portal not yet served). */
export const isMissingRoute = (err) => err instanceof ApiError && err.status === 404 && err.code === 'not_found' && /^no route /.test(err.message);
