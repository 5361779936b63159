import type { ErrorReply } from '@ratesmith/contracts/edge';
import { ApiError } from './errors';
import { sessionTokens, type TokenSource } from './session-token';

export const DEFAULT_TIMEOUT_MS = 15_000;

/** How long a prefetched answer waits for the screen's own get of it. */
export const PREFETCH_KEEP_MS = 10_000;

export interface RequestOptions {
  /** Query parameters; undefined values are left out. */
  query?: Record<string, string | number | undefined>;
  /** JSON body (POST/PUT/PATCH/DELETE). */
  body?: unknown;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** The request outlives the page (a report sent as the page is hidden or closed). */
  keepalive?: boolean;
  /** The Idempotency-Key of a create (newRequestKey): sent again with the same action. */
  requestKey?: string;
}

/** The one way the admin talks to the gateway. Resolves with the parsed JSON body (undefined for a 204). */
export interface ApiClient {
  get<T = unknown>(path: string, options?: RequestOptions): Promise<T>;
  post<T = unknown>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  delete<T = unknown>(path: string, options?: RequestOptions): Promise<T>;
  request<T = unknown>(method: string, path: string, options?: RequestOptions): Promise<T>;
  /**
   * Starts a GET now, while a screen's code is still loading: the screen's own get of the
   * same path and query, within PREFETCH_KEEP_MS, takes this answer instead of asking
   * again (once). A later prefetch of it replaces it; any other request than a GET drops
   * every prefetched answer (it may change them); one that failed is not used: the get
   * asks again.
   */
  prefetch(path: string, options?: Pick<RequestOptions, 'query'>): void;
}

/** The gateway's answer when Shopify refuses the shop's session: where to authorize again. */
const REAUTHORIZE_URL = 'x-shopify-api-request-failure-reauthorize-url';

export interface ApiClientOptions {
  tokens: TokenSource;
  /**
   * Opens a URL in the top window: inside the admin App Bridge takes
   * `window.open(url, '_top')` out of the frame (Shopify's authorize page
   * refuses to be framed).
   */
  openTop?: (url: string) => void;
  /** Defaults to the global fetch at call time (App Bridge may have replaced it). */
  fetch?: typeof fetch;
  timeoutMs?: number;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const tokens = sessionTokens(options.tokens);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  async function request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, opts.timeoutMs ?? timeoutMs);
    const onCallerAbort = () => controller.abort();
    opts.signal?.addEventListener('abort', onCallerAbort, { once: true });

    try {
      const attempt = async (): Promise<Response> => {
        const headers: Record<string, string> = {
          accept: 'application/json',
          ...(await tokens.headers(controller.signal)),
        };
        if (opts.body !== undefined) headers['content-type'] = 'application/json';
        if (opts.requestKey) headers['idempotency-key'] = opts.requestKey;
        const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
        return doFetch(withQuery(path, opts.query), {
          method,
          headers,
          body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
          signal: controller.signal,
          keepalive: opts.keepalive,
        });
      };
      let res = await attempt();
      if (res.status === 401 && options.tokens.kind === 'demo') {
        // The cached demo token may have expired in between: one retry with a fresh one.
        tokens.reset();
        res = await attempt();
      }
      const reauthorize = res.status === 401 ? res.headers?.get(REAUTHORIZE_URL) : null;
      if (reauthorize) (options.openTop ?? ((url) => window.open(url, '_top')))(reauthorize);
      return await parse<T>(res);
    } catch (err) {
      if (err instanceof ApiError) throw err;
      if (opts.signal?.aborted) throw err; // the caller gave up: not a failure to show
      throw new ApiError(timedOut ? 'The request timed out.' : 'The server could not be reached.', {
        status: 0,
        timedOut,
      });
    } finally {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onCallerAbort);
    }
  }

  const prefetched = new Map<string, { at: number; reply: Promise<unknown> }>();

  function prefetch(path: string, opts: Pick<RequestOptions, 'query'> = {}): void {
    const now = Date.now();
    for (const [url, early] of prefetched)
      if (now - early.at > PREFETCH_KEEP_MS) prefetched.delete(url);
    const url = withQuery(path, opts.query);
    const reply = request('GET', path, { query: opts.query });
    reply.catch(() => undefined); // its screen's get asks again
    prefetched.set(url, { at: now, reply });
  }

  function get<T>(path: string, opts: RequestOptions = {}): Promise<T> {
    const url = withQuery(path, opts.query);
    const early = prefetched.get(url);
    prefetched.delete(url);
    if (!early || Date.now() - early.at > PREFETCH_KEEP_MS) return request<T>('GET', path, opts);
    const reply = early.reply.catch(() => request<T>('GET', path, opts)) as Promise<T>;
    return opts.signal ? untilAborted(reply, opts.signal) : reply;
  }

  function change<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
    prefetched.clear();
    return request<T>(method, path, opts);
  }

  return {
    request: (method, path, opts) =>
      method === 'GET' ? request(method, path, opts) : change(method, path, opts),
    prefetch,
    get,
    post: (path, body, opts) => change('POST', path, { ...opts, body }),
    delete: (path, opts) => change('DELETE', path, opts),
  };
}

/** `promise`, or the abort's AbortError once `signal` aborts first (as fetch would). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  const aborted = () => new DOMException('The request was aborted.', 'AbortError');
  if (signal.aborted) return Promise.reject(aborted());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(aborted());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function withQuery(path: string, query: RequestOptions['query']): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined) params.set(key, String(value));
  const qs = params.toString();
  return qs ? `${path}${path.includes('?') ? '&' : '?'}${qs}` : path;
}

/** A 400's problems by field (ErrorReply's `fields`), texts only; undefined for anything else. */
function fieldsOf(value: unknown): Record<string, string> | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const entries = Object.entries(value).filter(
    (entry): entry is [string, string] => typeof entry[1] === 'string',
  );
  return entries.length ? Object.fromEntries(entries) : undefined;
}

async function parse<T>(res: Response): Promise<T> {
  // No Content: the call did what it was asked and has nothing to say.
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  let body: unknown = undefined;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON (a proxy's error page, say): judged by the status below
  }
  // Any body may arrive (a proxy's page, say): every field of ErrorReply is checked before use.
  const record = (body ?? {}) as { [K in keyof ErrorReply]?: unknown };
  const serverMessage =
    typeof record.message === 'string' && record.message ? record.message : undefined;
  if (!res.ok || record.status === false) {
    throw new ApiError(serverMessage ?? `The server answered ${res.status}.`, {
      status: res.status,
      serverMessage,
      errors: Array.isArray(record.errors) ? record.errors.map(String) : undefined,
      fields: fieldsOf(record.fields),
      body,
    });
  }
  if (body === undefined)
    throw new ApiError('The server sent an empty answer.', { status: res.status });
  return body as T;
}
