/** The install form's rules (spec section 5), applied to trimmed inputs. */
import { isEmailAddress } from '../../../proto/src/email';

export const SHOP_EXAMPLE = 'your-store.myshopify.com';

const SHOP = /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/i;

export interface InstallInput {
  shop: string;
  email: string;
}

/** The first problem, worded as the spec's form error, or undefined when the input is valid. */
export function installError({ shop, email }: InstallInput): string | undefined {
  if (!email) return 'Please provide a valid email.';
  if (!isEmailAddress(email)) return 'Please enter a valid email address.';
  if (!shop) return 'Please provide your Shopify subdomain.';
  if (!SHOP.test(shop)) return `Please enter a valid Shopify subdomain (e.g., ${SHOP_EXAMPLE})`;
  return undefined;
}

/** The inline hint under the subdomain field. */
export function shopHint(shop: string): string | undefined {
  if (!shop) return 'Shopify subdomain is required';
  if (!SHOP.test(shop)) return 'Should end with .myshopify.com';
  return undefined;
}

/** The inline hint under the email field. */
export function emailHint(email: string): string | undefined {
  if (!email) return 'Email is required';
  if (!isEmailAddress(email)) return 'Please enter a valid email';
  return undefined;
}
