import { z } from 'zod';
import type { NativeRateOff } from '../edge';
import { shopifyGid, shopifyIdDigits } from '../shopify-ids';
import { checkoutLocationGroup, type NativeProfile } from './import';

/**
 * Go live with Shopify's own rates turned off (docs/shopify.md, "Shadow
 * mode"): the one place that says which native rates that turns off. Pure:
 * the gateway reads the profiles and the zones through the auth service.
 */

/** The merchant's words when there is nothing to go live with, or to undo (gateway and rules alike). */
export const NO_SHADOW = 'No ruleset runs in shadow: start one first.';
export const NOTHING_TO_UNDO = 'There is no go-live to undo.';

/** Most rates one go-live turns off; a shop with more is told so rather than served a part. */
export const MAX_RATES_OFF = 250;

const RATE = 'DeliveryMethodDefinition';

/** A DeliveryMethodDefinition gid (the global form only), as a go-live request names rates. */
export const methodDefinitionId = z
  .string()
  .max(80)
  .refine(
    (id) => {
      const digits = shopifyIdDigits(id, { resource: RATE });
      return digits !== undefined && id === shopifyGid(RATE, digits);
    },
    { message: 'not a Shopify rate id' },
  );

/** The rates a go-live recorded (rules keeps them as JSON; the undo names them). */
export const nativeRatesOffSchema = z
  .array(
    z.object({
      id: methodDefinitionId,
      zone: z.string().max(500),
      name: z.string().max(500),
      price: z.string().max(500),
    }),
  )
  .max(MAX_RATES_OFF);

type Method =
  NativeProfile['profileLocationGroups'][number]['locationGroupZones'][number]['methodDefinitions'][number];

const UNITS: Record<string, string> = {
  GRAMS: 'g',
  KILOGRAMS: 'kg',
  OUNCES: 'oz',
  POUNDS: 'lb',
};

/** A rate's price and conditions in a few words: "5.00 USD, order up to 49.99 USD". */
export function nativeRateText(method: Method): string {
  if (method.rateProvider.__typename !== 'DeliveryRateDefinition') return '';
  const { amount, currencyCode } = method.rateProvider.price;
  const parts = [`${amount} ${currencyCode}`];
  for (const c of method.methodConditions) {
    const k = c.conditionCriteria;
    const value =
      k.__typename === 'MoneyV2'
        ? `${k.amount} ${k.currencyCode}`
        : `${k.value} ${UNITS[k.unit] ?? k.unit}`;
    const what = c.field === 'TOTAL_PRICE' ? 'order' : 'weight';
    parts.push(`${what} ${c.operator === 'GREATER_THAN_OR_EQUAL_TO' ? 'from' : 'up to'} ${value}`);
  }
  return parts.join(', ');
}

/**
 * The native rates a go-live turns off: the active merchant rates
 * (DeliveryRateDefinition) of the zones of the location group checkout ships
 * from (`checkoutLocationGroup`) in which Ratesmith's carrier service takes
 * part (`ratesmithZoneIds`, GetShippingZones' word), in Shopify's order.
 * Carrier participants (Ratesmith's or another app's) and rates already
 * inactive are never in it; in a zone without Ratesmith, turning the rates
 * off would leave checkout there with none.
 */
export function nativeRatesToTurnOff(
  profiles: NativeProfile[],
  ratesmithZoneIds: ReadonlySet<string>,
): NativeRateOff[] {
  const group = checkoutLocationGroup(profiles);
  if (!group) return [];
  return group.locationGroupZones
    .filter((z) => ratesmithZoneIds.has(z.zone.id))
    .flatMap(({ zone, methodDefinitions }) =>
      methodDefinitions
        .filter((m) => m.active && m.rateProvider.__typename === 'DeliveryRateDefinition')
        .map((m) => ({ id: m.id, zone: zone.name, name: m.name, price: nativeRateText(m) })),
    );
}

/** The same rates, whatever their order: what the merchant confirmed is still what would change. */
export function sameRates(
  confirmed: readonly string[],
  current: readonly NativeRateOff[],
): boolean {
  const wanted = new Set(confirmed);
  return (
    wanted.size === confirmed.length &&
    wanted.size === current.length &&
    current.every((r) => wanted.has(r.id))
  );
}

/** Every merchant rate of the profiles by id: whether it is active (an undo turns back on only those off). */
export function merchantRateStates(profiles: NativeProfile[]): Map<string, boolean> {
  const states = new Map<string, boolean>();
  for (const p of profiles)
    for (const g of p.profileLocationGroups)
      for (const z of g.locationGroupZones)
        for (const m of z.methodDefinitions)
          if (m.rateProvider.__typename === 'DeliveryRateDefinition') states.set(m.id, m.active);
  return states;
}
