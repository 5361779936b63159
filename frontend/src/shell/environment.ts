/** Where the admin runs: inside the Shopify admin's frame, or on its own (demo mode). */
import type { TokenSource } from '../api';

/** True when the page is framed (the Shopify admin embeds the app in an iframe). */
export function isInFrame(win: Window = window): boolean {
  try {
    return win.self !== win.top;
  } catch {
    return true; // a cross-origin parent denies access to top: framed
  }
}

/**
 * App Bridge is on when the gateway put the `shopify-api-key` meta tag (and the
 * App Bridge script) into index.html, i.e. outside demo mode. Then App Bridge's
 * global fetch carries the session token; in demo mode the client fetches one.
 */
export function isAppBridgeEnabled(doc: Document = document): boolean {
  return doc.querySelector('meta[name="shopify-api-key"]') !== null;
}

/**
 * How this page's /api calls get their session token: App Bridge's fetch
 * inside the admin, the gateway's demo tokens for `shop` outside it.
 */
export function tokenSourceFor(shop: string, doc: Document = document): TokenSource {
  return isAppBridgeEnabled(doc) ? { kind: 'app-bridge' } : { kind: 'demo', shop };
}

export interface ShopContext {
  shop: string;
  host: string;
}

const SHOP_KEY = 'ratesmith:shop';
const HOST_KEY = 'ratesmith:host';

/**
 * Host and shop come from the query string, else from session
 * storage; the session stores both whenever the query brings them.
 */
export function resolveShopContext(search: string, storage: Storage): ShopContext | undefined {
  const params = new URLSearchParams(search);
  const shop = params.get('shop')?.trim();
  const host = params.get('host')?.trim();
  if (shop && host) {
    try {
      storage.setItem(SHOP_KEY, shop);
      storage.setItem(HOST_KEY, host);
    } catch {
      // storage full or blocked (private mode): the query still works for this page
    }
    return { shop, host };
  }
  const storedShop = safeGet(storage, SHOP_KEY);
  const storedHost = safeGet(storage, HOST_KEY);
  return storedShop && storedHost ? { shop: storedShop, host: storedHost } : undefined;
}

function safeGet(storage: Storage, key: string): string | null {
  try {
    return storage.getItem(key);
  } catch {
    return null;
  }
}

/** The shop's name for the top bar: "my-store" of my-store.myshopify.com. */
export function shopName(shop: string): string {
  return shop.replace(/\.myshopify\.com$/i, '');
}

/** The `host` the Shopify admin passes for a shop: base64url of its admin path. */
export function demoHost(shop: string): string {
  return btoa(`admin.shopify.com/store/${shopName(shop)}`)
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}
