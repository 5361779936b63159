import type { SentenceFormat, Weight } from '@ratesmith/contracts/filters';
import { countryName } from '../data/countries';
import type { RegionTable } from '../data/regions';
import { adminLocale, formatAmount } from '../money/money';

/** Intl's names of the filter language's weight units. */
const UNIT_NAMES: Record<Weight['unit'], string> = {
  g: 'gram',
  kg: 'kilogram',
  lb: 'pound',
  oz: 'ounce',
};

/**
 * How a rule's sentence (describeFilter) shows money, weights and places in
 * the admin: amounts in the shop's currency and numbers in the admin's
 * language; regions by name once their table has loaded (data/regions.ts),
 * by code before. One object per currency, locale and table, so memoised
 * sentences keep their inputs equal between renders.
 */
const formats = new Map<string, SentenceFormat>();

export function sentenceFormat(
  currency: string | null,
  regions: RegionTable | undefined,
  locale = adminLocale(),
): SentenceFormat {
  const key = `${currency ?? ''} ${locale} ${regions ? 'names' : 'codes'}`;
  let format = formats.get(key);
  if (!format) {
    const weights = new Map<string, Intl.NumberFormat>();
    format = {
      locale,
      money: (amount) => formatAmount(amount, currency, locale),
      weight: ({ amount, unit }) => {
        let weight = weights.get(unit);
        if (!weight) {
          weight = new Intl.NumberFormat(locale, { style: 'unit', unit: UNIT_NAMES[unit] });
          weights.set(unit, weight);
        }
        return weight.format(amount);
      },
      country: countryName,
      region: regions ? regions.regionName : (code) => code.toUpperCase(),
    };
    formats.set(key, format);
  }
  return format;
}
