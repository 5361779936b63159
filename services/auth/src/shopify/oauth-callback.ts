import type { ShopifyLibrary } from '@ratesmith/kit';
import type { Session } from '@shopify/shopify-api';
import { Cookies } from '@shopify/shopify-api/runtime';

const STATE_COOKIE = 'shopify_app_state';

/**
 * Completes the authorization-code grant with Shopify's library, which checks
 * the callback's HMAC and timestamp, compares `state` with its signed state
 * cookie, and exchanges the code for an (expiring) offline token. The app
 * keeps its states server-side (single use, bound to the shop; the caller
 * consumed it already), so the cookie the library expects is made here from
 * that verified state, signed with the app secret as the library signs it.
 */
export async function exchangeCallbackCode(options: {
  shopify: ShopifyLibrary;
  apiSecret: string;
  query: string;
  verifiedState: string;
}): Promise<Session> {
  const jar = new Cookies(
    { headers: {}, method: 'GET', url: '/' },
    { statusCode: 200, statusText: 'OK', headers: {} },
    { keys: [options.apiSecret] },
  );
  await jar.setAndSign(STATE_COOKIE, options.verifiedState);
  const cookie = Object.values(jar.outgoingCookieJar)
    .map((c) => `${c.name}=${c.value}`)
    .join('; ');
  const headers: Record<string, string> = {};
  const rawRequest = { method: 'GET', url: `/auth/callback?${options.query}`, headers: { cookie } };
  const rawResponse = {
    statusCode: 200,
    statusMessage: 'OK',
    getHeaders: () => ({}),
    setHeader: (name: string, value: string) => {
      headers[name] = value;
    },
  };
  const { session } = await options.shopify.auth.callback({
    rawRequest,
    rawResponse,
    expiring: true,
  });
  return session;
}
