/**
 * The delivery-profile model of the double, shaped like Shopify's
 * `deliveryProfiles` answer (connections flattened to arrays), and what a
 * checkout does with it: which zone a destination falls in, which carrier
 * services take part there, and which of the zone's own rates apply to a cart.
 */

export interface Money {
  amount: string;
  currencyCode: string;
}

export type WeightUnit = 'GRAMS' | 'KILOGRAMS' | 'OUNCES' | 'POUNDS';

export interface RateDefinition {
  __typename: 'DeliveryRateDefinition';
  id: string;
  price: Money;
}

export interface Participant {
  __typename: 'DeliveryParticipant';
  id: string;
  /** Only the id is kept: the answer shows the carrier service as it is now. */
  carrierService: { id: string; name?: string };
  adaptToNewServicesFlag: boolean;
  fixedFee: Money | null;
  percentageOfRateFee: number;
  participantServices: { name: string; active: boolean }[];
}

export interface Condition {
  id: string;
  field: 'TOTAL_PRICE' | 'TOTAL_WEIGHT';
  operator: 'GREATER_THAN_OR_EQUAL_TO' | 'LESS_THAN_OR_EQUAL_TO';
  conditionCriteria:
    ({ __typename: 'MoneyV2' } & Money) | { __typename: 'Weight'; value: number; unit: WeightUnit };
}

export interface MethodDefinition {
  id: string;
  name: string;
  active: boolean;
  description: string | null;
  rateProvider: RateDefinition | Participant;
  methodConditions: Condition[];
}

export interface Province {
  id?: string;
  code: string;
  name: string;
}

export interface Country {
  id: string;
  name: string;
  code: { countryCode: string | null; restOfWorld: boolean };
  /** The provinces the zone covers; empty: the whole country (a country without provinces). */
  provinces: Province[];
}

export interface Zone {
  id: string;
  name: string;
  countries: Country[];
}

export interface LocationGroupZone {
  zone: Zone;
  methodDefinitions: MethodDefinition[];
}

export interface ProfileLocationGroup {
  locationGroup: { id: string };
  locationGroupZones: LocationGroupZone[];
}

export interface DeliveryProfile {
  id: string;
  name: string;
  default: boolean;
  profileLocationGroups: ProfileLocationGroup[];
}

/** Where a checkout ships to, as the carrier rate request says. */
export interface Destination {
  country: string;
  province?: string | null;
}

function covers(country: Country, to: Destination): boolean {
  if (country.code.restOfWorld || country.code.countryCode !== to.country.toUpperCase())
    return false;
  if (!country.provinces.length) return true;
  const province = (to.province ?? '').toUpperCase();
  return country.provinces.some((p) => p.code.toUpperCase() === province);
}

/**
 * The zone of a location group that a destination falls in: the zone that
 * lists its country (and its province, when the zone lists provinces), else
 * the group's rest-of-world zone when no zone lists the country at all.
 * Undefined: the group does not ship there.
 */
export function zoneFor(
  group: ProfileLocationGroup,
  to: Destination,
): LocationGroupZone | undefined {
  const zones = group.locationGroupZones;
  const direct = zones.find((z) => z.zone.countries.some((c) => covers(c, to)));
  if (direct) return direct;
  const listed = zones.some((z) =>
    z.zone.countries.some((c) => c.code.countryCode === to.country.toUpperCase()),
  );
  if (listed) return undefined;
  return zones.find((z) => z.zone.countries.some((c) => c.code.restOfWorld));
}

/** The carrier service ids that take part in a zone: an active method definition names them. */
export function participatingCarriers(zone: LocationGroupZone): Set<string> {
  const ids = new Set<string>();
  for (const m of zone.methodDefinitions)
    if (m.active && m.rateProvider.__typename === 'DeliveryParticipant')
      ids.add(m.rateProvider.carrierService.id);
  return ids;
}

/** A cart as checkout weighs and prices it. */
export interface CartTotals {
  /** Sum of price × quantity, in the currency's minor units (cents). */
  subtotalCents: number;
  /** Sum of grams × quantity. */
  grams: number;
}

const GRAMS_PER: Record<WeightUnit, number> = {
  GRAMS: 1,
  KILOGRAMS: 1000,
  OUNCES: 28.349523125,
  POUNDS: 453.59237,
};

/** Totals of a carrier rate request's items (`price` in cents, `grams` per unit). */
export function cartTotals(items: readonly unknown[]): CartTotals {
  let subtotalCents = 0;
  let grams = 0;
  for (const raw of items) {
    const item = (raw ?? {}) as { price?: unknown; grams?: unknown; quantity?: unknown };
    const quantity = Number(item.quantity ?? 1) || 0;
    subtotalCents += (Number(item.price) || 0) * quantity;
    grams += (Number(item.grams) || 0) * quantity;
  }
  return { subtotalCents, grams };
}

/** Whether a condition passes for the cart. Both operators include the bound itself. */
export function conditionPasses(condition: Condition, cart: CartTotals): boolean {
  const c = condition.conditionCriteria;
  let value: number;
  let bound: number;
  if (condition.field === 'TOTAL_PRICE') {
    if (c.__typename !== 'MoneyV2') return false;
    // Compare in cents, so 100.00 against 10000 is exact.
    value = cart.subtotalCents;
    bound = Math.round(Number(c.amount) * 100);
  } else {
    if (c.__typename !== 'Weight') return false;
    value = cart.grams;
    bound = c.value * GRAMS_PER[c.unit];
    // Unit conversion may leave a fraction of a milligram: compare at that precision.
    value = Math.round(value * 1000);
    bound = Math.round(bound * 1000);
  }
  return condition.operator === 'GREATER_THAN_OR_EQUAL_TO' ? value >= bound : value <= bound;
}

export interface NativeRate {
  methodDefinitionId: string;
  name: string;
  description: string | null;
  price: Money;
}

/** The zone's own rates a cart gets: active rate definitions whose every condition passes. */
export function nativeRates(zone: LocationGroupZone, cart: CartTotals): NativeRate[] {
  const rates: NativeRate[] = [];
  for (const m of zone.methodDefinitions) {
    if (!m.active || m.rateProvider.__typename !== 'DeliveryRateDefinition') continue;
    if (!m.methodConditions.every((c) => conditionPasses(c, cart))) continue;
    rates.push({
      methodDefinitionId: m.id,
      name: m.name,
      description: m.description,
      price: { ...m.rateProvider.price },
    });
  }
  return rates;
}
