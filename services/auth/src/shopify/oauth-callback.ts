import { HttpResponseError, Session } from '@shopify/shopify-api';
import { abstractFetch } from '@shopify/shopify-api/runtime';
import { type ShopifyLibrary } from '@ratesmith/kit/shopify';

interface AccessTokenReply {
  access_token: string;
  scope: string;
  expires_in?: number;
  refresh_token?: string;
  refresh_token_expires_in?: number;
}

/**
 * The authorization-code grant's last step: the callback's code for an
 * expiring offline token, posted as the library's `auth.callback` posts it
 * (through the library's fetch, so the kit's transport and time limit) and
 * made into the same offline session.
 *
 * Not `auth.callback` itself: that checks the callback's query HMAC and a
 * signed state cookie first. The HMAC is the gateway's to check
 * (`services/gateway/src/routes/oauth/router.ts`: the library's check, 90 s
 * window, every configured secret) before the request reaches this service
 * and before the state is spent; the state is checked here, server-side
 * (single use, bound to the shop) before this runs. Shopify's refusals come
 * back as the library's `HttpResponseError`, as they did from the library.
 */
export async function exchangeCallbackCode(options: {
  shopify: ShopifyLibrary;
  /** A permanent shop domain (checked by the caller). */
  shop: string;
  code: string;
}): Promise<Session> {
  const { shopify, shop, code } = options;
  const response = await abstractFetch(`https://${shop}/admin/oauth/access_token`, {
    method: 'POST',
    body: JSON.stringify({
      client_id: shopify.config.apiKey,
      client_secret: shopify.config.apiSecretKey,
      code,
      expiring: '1',
    }),
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
  });
  const body = (await response.json()) as Record<string, unknown>;
  if (!response.ok) {
    throw new HttpResponseError({
      message: `Received an error response (${response.status} ${response.statusText}) from Shopify`,
      code: response.status,
      statusText: response.statusText,
      body,
    });
  }
  const reply = body as unknown as AccessTokenReply;
  const inSeconds = (seconds: number) => new Date(Date.now() + seconds * 1000);
  return new Session({
    id: shopify.session.getOfflineId(shop),
    shop,
    state: '',
    isOnline: false,
    accessToken: reply.access_token,
    scope: reply.scope,
    ...(reply.expires_in ? { expires: inSeconds(reply.expires_in) } : {}),
    ...(reply.refresh_token && reply.refresh_token_expires_in
      ? {
          refreshToken: reply.refresh_token,
          refreshTokenExpires: inSeconds(reply.refresh_token_expires_in),
        }
      : {}),
  });
}
