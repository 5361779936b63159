/**
 * The admin's one way to show money: the browser's number formatting
 * (Intl.NumberFormat) in the admin's language, with the shop's currency
 * (GET /api/shop) or, in the rate preview, the currency of the quoted request.
 * Amounts are currency units (a filter's amount); rates and traces are cents.
 */

/** The admin's language for numbers (the browser's). */
export function adminLocale(): string {
  return typeof navigator !== 'undefined' && navigator.language ? navigator.language : 'en-US';
}

/** Made once per currency and locale: a long rule list formats thousands of amounts. */
const currencyFormats = new Map<string, Intl.NumberFormat | null>();

function currencyFormat(currency: string, locale: string): Intl.NumberFormat | null {
  const key = `${currency} ${locale}`;
  if (currencyFormats.has(key)) return currencyFormats.get(key)!;
  let format: Intl.NumberFormat | null;
  try {
    format = new Intl.NumberFormat(locale, { style: 'currency', currency });
  } catch {
    // Not a well-formed ISO 4217 code.
    format = null;
  }
  currencyFormats.set(key, format);
  return format;
}

/**
 * An amount in currency units, e.g. 12.5 -> "$12.50" (USD) or "€12.50" (EUR).
 * Without a known currency, the number alone with two decimals.
 */
export function formatAmount(
  amount: number,
  currency: string | null | undefined,
  locale = adminLocale(),
): string {
  const format = currency ? currencyFormat(currency, locale) : null;
  if (format) return format.format(amount);
  const number = new Intl.NumberFormat(locale, {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(amount);
  return currency ? `${number} ${currency}` : number;
}

/** Cents (a number, or Shopify's decimal string of cents) in currency units. */
export function formatCents(
  cents: number | string,
  currency: string | null | undefined,
  locale = adminLocale(),
): string {
  return formatAmount(Number(cents) / 100, currency, locale);
}

/** The currency's sign as the admin's language writes it ("$", "€", "CHF"), for input prefixes; undefined when unknown. */
export function currencySymbol(
  currency: string | null | undefined,
  locale = adminLocale(),
): string | undefined {
  const format = currency ? currencyFormat(currency, locale) : null;
  return format?.formatToParts(0).find((part) => part.type === 'currency')?.value;
}
