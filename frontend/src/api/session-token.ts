/**
 * How /api calls get their session token.
 *
 * - Inside the Shopify admin, App Bridge 4 replaces the global `fetch` and adds
 *   `Authorization: Bearer <session token>` to same-origin requests itself, so
 *   the client adds nothing ("app-bridge").
 * - In demo mode (outside the admin) the gateway mints tokens for the demo
 *   shops at `GET /demo/session-token?shop=`; they live 60 s, so one is reused
 *   until 10 s before it expires ("demo").
 * - The install screen calls the API without a session ("none").
 */
export type TokenSource =
  | { kind: 'none' }
  | { kind: 'app-bridge' }
  | { kind: 'demo'; shop: string; fetch?: typeof fetch; now?: () => number };

export interface SessionTokens {
  /** Headers to add to an /api request. */
  headers(signal?: AbortSignal): Promise<Record<string, string>>;
  /** Forget the cached token (after a 401, so the next call fetches a fresh one). */
  reset(): void;
}

const REFRESH_MARGIN_MS = 10_000;

export function sessionTokens(source: TokenSource): SessionTokens {
  if (source.kind !== 'demo') return { headers: async () => ({}), reset: () => undefined };

  const now = source.now ?? Date.now;
  let cached: { token: string; expiresAt: number } | undefined;
  let pending: Promise<string> | undefined;

  const fetchToken = async (signal?: AbortSignal): Promise<string> => {
    const doFetch = source.fetch ?? fetch;
    const res = await doFetch(`/demo/session-token?shop=${encodeURIComponent(source.shop)}`, {
      signal,
    });
    const body = (await res.json().catch(() => ({}))) as {
      token?: string;
      expires_in?: number;
      message?: string;
    };
    if (!res.ok || !body.token)
      throw new Error(body.message ?? `No demo session for ${source.shop} (HTTP ${res.status}).`);
    cached = { token: body.token, expiresAt: now() + (body.expires_in ?? 60) * 1000 };
    return body.token;
  };

  return {
    async headers(signal) {
      if (!cached || cached.expiresAt - REFRESH_MARGIN_MS <= now()) {
        // Concurrent calls share one token request.
        pending ??= fetchToken(signal).finally(() => (pending = undefined));
        await pending;
      }
      return { authorization: `Bearer ${cached!.token}` };
    },
    reset() {
      cached = undefined;
    },
  };
}
