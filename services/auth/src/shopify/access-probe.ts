import { HttpResponseError } from '@shopify/shopify-api';
import { AppError } from '@ratesmith/kit';
import { type ShopifyLibrary } from '@ratesmith/kit/shopify';
import { adminGraphql } from './admin-graphql';
import type { TokenService } from '../tokens/token-service';

const PROBE = 'query RatesmithAccessProbe { shop { id } }';

/**
 * Whether Shopify still accepts the shop's access token: the cheapest Admin
 * API query, answered true when it succeeds and false when Shopify answers
 * 401 (the grant is gone: uninstalled). Anything else (5xx, 429, timeouts)
 * is `unavailable`, so a webhook that depends on the answer is retried later
 * instead of acting on a guess.
 */
export async function shopifyAcceptsToken(
  shopify: ShopifyLibrary,
  shop: string,
  accessToken: string,
): Promise<boolean> {
  try {
    await adminGraphql(shopify, shop, accessToken).request(PROBE);
    return true;
  } catch (err) {
    if (err instanceof HttpResponseError && err.response.code === 401) return false;
    throw new AppError('unavailable', 'Shopify cannot be reached right now.', [], { cause: err });
  }
}

/**
 * Whether the app is still installed on the shop as far as Shopify is
 * concerned: the stored token (refreshed if it is about to expire) still
 * works. No stored token, or a refresh Shopify refuses, means no.
 */
export async function appStillInstalled(
  deps: { tokens: Pick<TokenService, 'getAccessToken'>; shopify: ShopifyLibrary },
  shop: string,
): Promise<boolean> {
  let accessToken: string;
  try {
    ({ accessToken } = await deps.tokens.getAccessToken(shop));
  } catch (err) {
    if (err instanceof AppError && err.kind === 'not_found') return false;
    throw err;
  }
  return shopifyAcceptsToken(deps.shopify, shop, accessToken);
}
