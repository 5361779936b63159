import { weightIn, type Weight, type WeightUnit } from '@ratesmith/contracts/filters';
import { adminLocale } from './money';

/**
 * The admin's one way to show a weight: in the unit asked for (the shop's
 * default, GET /api/shop), with the browser's number formatting. Grams are
 * whole; kilograms, pounds and ounces keep two decimals at most, e.g. 680 g
 * in pounds is "1.5 lb".
 */
export function formatWeight(weight: Weight, unit: WeightUnit, locale = adminLocale()): string {
  const amount = new Intl.NumberFormat(locale, {
    maximumFractionDigits: unit === 'g' ? 0 : 2,
  }).format(weightIn(weight, unit));
  return `${amount} ${unit}`;
}
