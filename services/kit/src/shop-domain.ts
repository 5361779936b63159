import { AppError } from './errors';

/**
 * A shop's permanent domain, the only form the app accepts from anyone
 * (lowercase, as Shopify's permanent domains are).
 */
export const SHOP_DOMAIN = /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/;

/**
 * The shop as a permanent domain, or an `invalid_data` AppError: the guard
 * before a shop becomes the host of a Shopify URL or the key of stored data.
 */
export function requireShopDomain(shop: string): string {
  if (!SHOP_DOMAIN.test(shop))
    throw new AppError('invalid_data', 'That is not a valid shop domain.');
  return shop;
}
