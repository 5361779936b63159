/**
 * The rate key: the unguessable part of a shop's carrier-callback URL
 * (`/carrier/rates/<rate key>`), 128 random bits in base64url. The auth service is
 * its one owner: it issues the key at install, stores it, registers the URL with
 * Shopify and hands the key to the rules service, which only copies it into the
 * shop's snapshot so the rate engine can tell which shop a callback is for.
 */
export const RATE_KEY_CHARS = '[A-Za-z0-9_-]{22,64}';

export const RATE_KEY = new RegExp(`^${RATE_KEY_CHARS}$`);

/** The path Shopify posts a shop's rate requests to. */
export function carrierCallbackPath(rateKey: string): string {
  return `/carrier/rates/${rateKey}`;
}
