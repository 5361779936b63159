/**
 * The install form's rules: what a shop domain and an email
 * must look like, and the messages the page and the gateway both show. Plain
 * TypeScript with no imports beyond the email check, so the admin bundles it
 * from source (`@ratesmith/contracts/install-form`).
 */
export { EMAIL_MAX_LENGTH, isEmailAddress } from './email';

/**
 * A shop's permanent domain, the only form the app accepts from anyone
 * (lowercase, as Shopify's permanent domains are).
 */
export const SHOP_DOMAIN = /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/;

/** The longest shop domain the app takes (Shopify's store names are far shorter). */
export const SHOP_DOMAIN_MAX_LENGTH = 80;

export const SHOP_EXAMPLE = 'your-store.myshopify.com';

export function isShopDomain(value: string): boolean {
  return value.length <= SHOP_DOMAIN_MAX_LENGTH && SHOP_DOMAIN.test(value);
}

/** The install page's messages (the original app's texts). */
export const INSTALL_MESSAGES = {
  shopRequired: 'Please provide your Shopify subdomain.',
  shopInvalid: `Please enter a valid Shopify subdomain (e.g., ${SHOP_EXAMPLE})`,
  emailRequired: 'Please provide a valid email.',
  emailInvalid: 'Please enter a valid email address.',
  reinstallFailed: 'Reinstallation failed',
} as const;
