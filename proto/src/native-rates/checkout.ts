/**
 * The delivery-profile model, shaped like Shopify's `deliveryProfiles` answer
 * (connections flattened to arrays), and what a checkout does with it: which
 * zone a destination falls in, which carrier services take part there, and
 * which of the zone's own rates apply to a cart (docs/shopify.md, "Native
 * rates"). The double's checkout and the rate engine's shadow mode both use it.
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

/**
 * What checkout reads of a zone and its rates: the double's full model and
 * the import's parsed profiles (nativeProfilesSchema) both have it.
 */
export interface ZoneRates {
  zone: {
    countries: {
      code: { countryCode: string | null; restOfWorld: boolean };
      provinces: { code: string }[];
    }[];
  };
  methodDefinitions: {
    id: string;
    name: string;
    active: boolean;
    description: string | null;
    rateProvider:
      | { __typename: 'DeliveryRateDefinition'; price: Money }
      | { __typename: 'DeliveryParticipant'; carrierService: { id: string } };
    methodConditions: Pick<Condition, 'field' | 'operator' | 'conditionCriteria'>[];
  }[];
}

function covers(country: ZoneRates['zone']['countries'][number], to: Destination): boolean {
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
export function zoneFor<Z extends ZoneRates>(
  group: { locationGroupZones: Z[] },
  to: Destination,
): Z | undefined {
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
export function participatingCarriers(zone: ZoneRates): Set<string> {
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

/** Grams per unit as an exact fraction [numerator, denominator]: 1 lb is 453.59237 g, 1 oz 1/16 of it. */
const GRAMS_PER: Record<WeightUnit, readonly [bigint, bigint]> = {
  GRAMS: [1n, 1n],
  KILOGRAMS: [1000n, 1n],
  OUNCES: [28_349_523_125n, 1_000_000_000n],
  POUNDS: [45_359_237n, 100_000n],
};

/** A decimal as an exact fraction [n, 10^scale]; NaN-like text is refused by the schema first. */
function exact(decimal: string): readonly [bigint, bigint] {
  const [whole = '0', frac = ''] = decimal.trim().split('.');
  return [BigInt(whole + frac), 10n ** BigInt(frac.length)];
}

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

/**
 * Whether a condition passes for the cart, compared exactly (no rounding, no
 * tolerance): both operators include the bound itself, so a cart of 49.99
 * passes "at most 49.99" and fails "at most 49.989".
 */
export function conditionPasses(
  condition: Pick<Condition, 'field' | 'operator' | 'conditionCriteria'>,
  cart: CartTotals,
): boolean {
  const c = condition.conditionCriteria;
  // value / valueDen compared with bound / boundDen by cross-multiplying.
  let value: bigint;
  let valueDen: bigint;
  let bound: bigint;
  let boundDen: bigint;
  if (condition.field === 'TOTAL_PRICE') {
    if (c.__typename !== 'MoneyV2') return false;
    [value, valueDen] = [BigInt(cart.subtotalCents), 100n];
    [bound, boundDen] = exact(c.amount);
  } else {
    if (c.__typename !== 'Weight') return false;
    [value, valueDen] = [BigInt(cart.grams), 1n];
    // A Float as the decimal it prints as (2.001, not 2.000999…), times the unit's grams.
    const [n, d] = exact(c.value.toFixed(9));
    const [gn, gd] = GRAMS_PER[c.unit];
    [bound, boundDen] = [n * gn, d * gd];
  }
  const left = value * boundDen;
  const right = bound * valueDen;
  return condition.operator === 'GREATER_THAN_OR_EQUAL_TO' ? left >= right : left <= right;
}

export interface NativeRate {
  methodDefinitionId: string;
  name: string;
  description: string | null;
  price: Money;
}

/**
 * The zone's own rates a cart gets: active rate definitions whose every
 * condition passes, cheapest first (the default option at checkout); of
 * several of one name, only the cheapest (the first of them in the zone's
 * order at one price), as checkout shows a name once.
 */
export function nativeRates(zone: ZoneRates, cart: CartTotals): NativeRate[] {
  const byName = new Map<string, NativeRate>();
  for (const m of zone.methodDefinitions) {
    if (!m.active || m.rateProvider.__typename !== 'DeliveryRateDefinition') continue;
    if (!m.methodConditions.every((c) => conditionPasses(c, cart))) continue;
    const rate: NativeRate = {
      methodDefinitionId: m.id,
      name: m.name,
      description: m.description,
      price: { ...m.rateProvider.price },
    };
    const other = byName.get(m.name);
    if (!other || cents(rate) < cents(other)) byName.set(m.name, rate);
  }
  return [...byName.values()].sort((a, b) => cents(a) - cents(b));
}

/** A native rate's price in whole cents (prices have at most two decimals). */
export function cents(rate: Pick<NativeRate, 'price'>): number {
  const [n, d] = exact(rate.price.amount);
  return Number((n * 100n) / d);
}
