/** The install form's rules (contracts' install-form, the gateway checks the same), applied to trimmed inputs. */
import { INSTALL_MESSAGES, isEmailAddress, isShopDomain } from '@ratesmith/contracts/install-form';

export interface InstallInput {
  shop: string;
  email: string;
}

/**
 * What the form sends: trimmed, and the shop lower-cased (a domain's case means
 * nothing, and the gateway takes permanent domains in lowercase only).
 */
export function cleanInstallInput({ shop, email }: InstallInput): InstallInput {
  return { shop: shop.trim().toLowerCase(), email: email.trim() };
}

/** The first problem, worded as the install page's form error, or undefined when the input is valid. */
export function installError({ shop, email }: InstallInput): string | undefined {
  if (!email) return INSTALL_MESSAGES.emailRequired;
  if (!isEmailAddress(email)) return INSTALL_MESSAGES.emailInvalid;
  if (!shop) return INSTALL_MESSAGES.shopRequired;
  if (!isShopDomain(shop)) return INSTALL_MESSAGES.shopInvalid;
  return undefined;
}

/** The inline hint under the subdomain field. */
export function shopHint(shop: string): string | undefined {
  if (!shop) return 'Shopify subdomain is required';
  if (!isShopDomain(shop)) return 'Should end with .myshopify.com';
  return undefined;
}

/** The inline hint under the email field. */
export function emailHint(email: string): string | undefined {
  if (!email) return 'Email is required';
  if (!isEmailAddress(email)) return 'Please enter a valid email';
  return undefined;
}
