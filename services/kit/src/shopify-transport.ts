/**
 * The fetch function every service hands to `@shopify/shopify-api`'s
 * `setAbstractFetchFunc`. The library sends everything (OAuth code exchange,
 * token exchange, refresh, Admin GraphQL) to `https://<shop>/...`; with an
 * origin (SHOPIFY_API_ORIGIN, the local Shopify double in tests and demo
 * mode) those requests go to `<origin>/...` instead, the shop carried in the
 * `x-shopify-shop-domain` header. Without one the real fetch runs unchanged.
 * Either way every request gets a time limit, since the library sets none.
 */
export const SHOP_DOMAIN_HEADER = 'x-shopify-shop-domain';

export type FetchFunction = (
  input: string | URL | Request,
  init?: RequestInit,
) => Promise<Response>;

export function shopifyTransport(
  options: {
    /** e.g. `http://127.0.0.1:4000`; unset or empty means the real Shopify. */
    origin?: string | undefined;
    timeoutMs?: number;
    /** The underlying fetch (tests); defaults to the global one. */
    fetch?: FetchFunction;
  } = {},
): FetchFunction {
  const baseFetch: FetchFunction = options.fetch ?? ((input, init) => fetch(input, init));
  const timeoutMs = options.timeoutMs ?? 10_000;
  const origin = options.origin ? new URL(options.origin) : undefined;
  return async (input, init = {}) => {
    const limit = AbortSignal.timeout(timeoutMs);
    const signal = init.signal ? AbortSignal.any([init.signal, limit]) : limit;
    if (!origin) return baseFetch(input, { ...init, signal });

    const request = input instanceof Request ? input : undefined;
    const target = new URL(request ? request.url : input.toString());
    const headers = new Headers(request?.headers);
    new Headers(init.headers).forEach((value, key) => headers.set(key, value));
    headers.set(SHOP_DOMAIN_HEADER, target.hostname);
    const rewritten = new URL(`${target.pathname}${target.search}`, origin);
    return baseFetch(rewritten, {
      ...init,
      method: init.method ?? request?.method,
      body: init.body ?? (request ? await request.text() : undefined),
      headers,
      signal,
    });
  };
}

/**
 * A shop admin URL a browser opens (the OAuth authorize page):
 * `https://<shop><path>`, or with an origin (the local double)
 * `<origin><path>` with the shop as a query parameter, since a browser
 * cannot send the shop header.
 */
export function shopifyAdminUrl(shop: string, path: string, origin?: string): URL {
  if (!origin) return new URL(path, `https://${shop}`);
  const url = new URL(path, origin);
  url.searchParams.set('shop', shop);
  return url;
}
