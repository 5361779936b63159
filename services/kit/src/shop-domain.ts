import { isShopDomain, SHOP_DOMAIN } from '@ratesmith/contracts';
import { AppError } from './errors';

export { SHOP_DOMAIN };

/**
 * The shop as a permanent domain, or an `invalid_data` AppError: the guard
 * before a shop becomes the host of a Shopify URL or the key of stored data.
 */
export function requireShopDomain(shop: string): string {
  if (!isShopDomain(shop)) throw new AppError('invalid_data', 'That is not a valid shop domain.');
  return shop;
}
