import { z } from 'zod';
import type { DraftCondition, DraftGroup, FilterDraft } from '../filters/draft';
import {
  isWeightAmount,
  LIMITS,
  normaliseRegion,
  SHOPIFY_WEIGHT_UNITS,
  weightToGrams,
  type Weight,
} from '../filters/limits';

/**
 * Import of the shop's Shopify shipping rates (its delivery profiles) into one
 * new ruleset whose quotes equal, cart by cart, the native rates checkout
 * shows for the rates it imports; the semantics are docs/shopify.md's
 * "Native rates", which the double's checkout computes
 * (tools/shopify-double/src/delivery-rates.ts). Pure: the gateway reads the
 * profiles through the auth service and hands them here.
 */

/** Sizes a read may have (Shopify's own are lower; these bound what the gateway parses). */
export const NATIVE_IMPORT_LIMITS = {
  profiles: 100,
  locationGroups: 20,
  zones: 250,
  countries: 250,
  provinces: 100,
  methods: 100,
  conditions: 10,
  text: 500,
} as const;

const L = NATIVE_IMPORT_LIMITS;
const text = z.string().max(L.text);
const money = z.object({ amount: z.string().max(40), currencyCode: z.string().max(3) });

/**
 * Shopify's `deliveryProfiles` answer with every connection flattened to a
 * list (the auth service's read and the double's profiles have this shape).
 */
export const nativeProfilesSchema = z
  .array(
    z.object({
      id: text,
      name: text,
      default: z.boolean(),
      profileLocationGroups: z
        .array(
          z.object({
            locationGroup: z.object({ id: text }),
            locationGroupZones: z
              .array(
                z.object({
                  zone: z.object({
                    id: text,
                    name: text,
                    countries: z
                      .array(
                        z.object({
                          code: z.object({
                            countryCode: z.string().max(3).nullable(),
                            restOfWorld: z.boolean(),
                          }),
                          provinces: z
                            .array(z.object({ code: z.string().max(20) }))
                            .max(L.provinces),
                        }),
                      )
                      .max(L.countries),
                  }),
                  methodDefinitions: z
                    .array(
                      z.object({
                        id: text,
                        name: text,
                        active: z.boolean(),
                        description: text.nullable(),
                        rateProvider: z.union([
                          z.object({
                            __typename: z.literal('DeliveryRateDefinition'),
                            price: money,
                          }),
                          z.object({
                            __typename: z.literal('DeliveryParticipant'),
                            carrierService: z.object({ id: text, formattedName: text.nullish() }),
                          }),
                        ]),
                        methodConditions: z
                          .array(
                            z.object({
                              field: z.enum(['TOTAL_PRICE', 'TOTAL_WEIGHT']),
                              operator: z.enum([
                                'GREATER_THAN_OR_EQUAL_TO',
                                'LESS_THAN_OR_EQUAL_TO',
                              ]),
                              conditionCriteria: z.union([
                                z.object({ __typename: z.literal('MoneyV2'), ...money.shape }),
                                z.object({
                                  __typename: z.literal('Weight'),
                                  value: z.number().min(0),
                                  unit: z.enum(['GRAMS', 'KILOGRAMS', 'OUNCES', 'POUNDS']),
                                }),
                              ]),
                            }),
                          )
                          .max(L.conditions),
                      }),
                    )
                    .max(L.methods),
                }),
              )
              .max(L.zones),
          }),
        )
        .max(L.locationGroups),
    }),
  )
  .max(L.profiles);

export type NativeProfile = z.infer<typeof nativeProfilesSchema>[number];

/** One location group of a profile: its zones and their rates (a shadow keeps the one checkout ships from). */
export const nativeLocationGroupSchema =
  nativeProfilesSchema.element.shape.profileLocationGroups.element;
export type NativeLocationGroup = z.infer<typeof nativeLocationGroupSchema>;
type GroupZone = NativeProfile['profileLocationGroups'][number]['locationGroupZones'][number];
type Method = GroupZone['methodDefinitions'][number];
type MethodCondition = Method['methodConditions'][number];

/** A rate the ruleset holds: its rule is `rule` (from 0) of `filters`. */
export interface ImportedRate {
  id: string;
  zone: string;
  name: string;
  /** Decimal, in the store's currency. */
  price: string;
  rule: number;
}

/** A rate left out, and why, in the merchant's words. */
export interface SkippedRate {
  id: string;
  profile: string;
  zone: string;
  name: string;
  reason: string;
}

export interface NativeRateImport {
  /** Zones of every profile and location group. */
  zones: number;
  /** Method definitions of every zone (merchant rates and carrier apps alike). */
  rates: number;
  /** The new ruleset's rules, in order. */
  filters: FilterDraft[];
  imported: ImportedRate[];
  skipped: SkippedRate[];
  /** "4 zones, 7 rates → 1 ruleset of 5 rules; 2 rates cannot be imported." */
  summary: string;
}

/** A closed range of integers (cents or grams); `hi` Infinity: no upper bound. */
interface Range {
  lo: number;
  hi: number;
}

const TEN = BigInt(10);

/** A decimal text as an exact fraction n / 10^scale; undefined when it is not a plain decimal. */
function decimal(textValue: string): { n: bigint; scale: number } | undefined {
  const m = /^(\d{1,15})(?:\.(\d{1,15}))?$/.exec(textValue.trim());
  if (!m) return undefined;
  const frac = m[2] ?? '';
  return { n: BigInt(m[1]! + frac), scale: frac.length };
}

/** floor or ceil of a / b for non-negative bigints. */
function divide(a: bigint, b: bigint, up: boolean): bigint {
  const q = a / b;
  return up && q * b !== a ? q + BigInt(1) : q;
}

/**
 * The whole cents a bound admits: a cart (whole cents) is at least 49.995
 * exactly when it is at least 50.00, and at most 49.995 when at most 49.99.
 */
function centsBound(amount: string, atLeast: boolean): number | undefined {
  const d = decimal(amount);
  if (!d) return undefined;
  return Number(divide(d.n * BigInt(100), TEN ** BigInt(d.scale), atLeast));
}

/** Grams per Shopify weight unit as an exact fraction (the pound is 453.59237 g by definition). */
const GRAMS: Record<string, readonly [bigint, bigint]> = {
  GRAMS: [BigInt(1), BigInt(1)],
  KILOGRAMS: [BigInt(1000), BigInt(1)],
  POUNDS: [BigInt(45_359_237), BigInt(100_000)],
  OUNCES: [BigInt(28_349_523_125), BigInt(1_000_000_000)],
};

/** The whole grams a weight bound admits (cart weights are whole grams). */
function gramsBound(value: number, unit: string, atLeast: boolean): number | undefined {
  const d = decimal(value.toFixed(9));
  const factor = GRAMS[unit];
  if (!d || !factor) return undefined;
  return Number(divide(d.n * factor[0], factor[1] * TEN ** BigInt(d.scale), atLeast));
}

const MAX_CENTS = LIMITS.maxAmount * 100;
const NEVER_SHOWN = 'its conditions leave no cart, so checkout never shows it';
const MAX_GRAMS = LIMITS.maxWeight * 1000;

/** The price and weight ranges a rate's conditions leave, or why they cannot be read. */
function rangesOf(
  conditions: MethodCondition[],
  currency: string,
): { price: Range; weight: Range } | string {
  const price: Range = { lo: 0, hi: Infinity };
  const weight: Range = { lo: 0, hi: Infinity };
  for (const c of conditions) {
    const atLeast = c.operator === 'GREATER_THAN_OR_EQUAL_TO';
    const k = c.conditionCriteria;
    let bound: number | undefined;
    let range: Range;
    if (c.field === 'TOTAL_PRICE' && k.__typename === 'MoneyV2') {
      if (k.currencyCode !== currency)
        return `its order-price condition is in ${k.currencyCode}, not the store's currency (${currency})`;
      bound = centsBound(k.amount, atLeast);
      range = price;
    } else if (c.field === 'TOTAL_WEIGHT' && k.__typename === 'Weight') {
      bound = gramsBound(k.value, k.unit, atLeast);
      range = weight;
    } else {
      return 'it has a condition Ratesmith cannot read';
    }
    if (bound === undefined) return 'it has a condition Ratesmith cannot read';
    if (atLeast) range.lo = Math.max(range.lo, bound);
    else range.hi = Math.min(range.hi, bound);
  }
  if (price.lo > price.hi || weight.lo > weight.hi) return NEVER_SHOWN;
  if (price.lo > MAX_CENTS || (price.hi !== Infinity && price.hi > MAX_CENTS))
    return `its order-price condition is above ${LIMITS.maxAmount.toLocaleString('en-US')}, the most a condition can hold`;
  if (weight.lo > MAX_GRAMS || (weight.hi !== Infinity && weight.hi > MAX_GRAMS))
    return `its weight condition is above ${LIMITS.maxWeight.toLocaleString('en-US')} kg, the most a condition can hold`;
  return { price, weight };
}

const overlap = (a: Range, b: Range) => Math.max(a.lo, b.lo) <= Math.min(a.hi, b.hi);

let conditionSeq = 0;
const condition = (field: string, operator: string, value: DraftCondition['value']) =>
  ({ id: `c${++conditionSeq}`, type: 'condition', field, operator, value }) as DraftCondition;
const group = (kind: 'AND' | 'OR', rules: DraftGroup['rules']): DraftGroup => ({
  id: `g${++conditionSeq}`,
  type: 'group',
  condition: kind,
  rules,
});

/**
 * A weight bound of `grams` whole grams, in the merchant's own unit when
 * Ratesmith turns it back into exactly those grams (2 kg), else in kg with
 * three decimals, which always does (docs/rates.md, "Weights").
 */
function weightValue(grams: number, native?: MethodCondition['conditionCriteria']): Weight {
  if (native?.__typename === 'Weight') {
    const unit = SHOPIFY_WEIGHT_UNITS[native.unit];
    const own = unit && { amount: native.value, unit };
    if (own && isWeightAmount(own.amount) && weightToGrams(own) === grams) return own;
  }
  return { amount: grams / 1000, unit: 'kg' };
}

/** The cart conditions of a rate: its price and weight ranges as `cart_price` / `cart_weight`. */
function cartConditions(method: Method, price: Range, weight: Range): DraftCondition[] {
  const out: DraftCondition[] = [];
  if (price.lo > 0) out.push(condition('cart_price', 'greater_or_equal', price.lo / 100));
  if (price.hi !== Infinity) out.push(condition('cart_price', 'less_or_equal', price.hi / 100));
  const w = method.methodConditions.find((c) => c.field === 'TOTAL_WEIGHT')?.conditionCriteria;
  if (weight.lo > 0)
    out.push(condition('cart_weight', 'greater_or_equal', weightValue(weight.lo, w)));
  if (weight.hi !== Infinity)
    out.push(condition('cart_weight', 'less_or_equal', weightValue(weight.hi, w)));
  return out;
}

/**
 * The destination test of a zone, or why it cannot be written: its whole
 * countries as `shipping_country in`, its provinces as `shipping_region in`
 * (`US-CA`), the rest of the world as `shipping_country not_in` every country
 * another zone of the location group lists (null: every destination).
 */
function zoneTest(
  zone: GroupZone['zone'],
  listed: string[],
): DraftCondition | DraftGroup | null | string {
  const countries: string[] = [];
  const regions: string[] = [];
  let rest = false;
  for (const c of zone.countries) {
    if (c.code.restOfWorld) {
      rest = true;
      continue;
    }
    const code = (c.code.countryCode ?? '').toUpperCase();
    if (!/^[A-Z]{2}$/.test(code))
      return `the zone lists a country code Ratesmith cannot read (${code})`;
    if (!c.provinces.length) {
      countries.push(code);
      continue;
    }
    for (const p of c.provinces) {
      const region = normaliseRegion(`${code}-${p.code}`);
      if (!region) return `the zone's province ${p.code} (${code}) cannot be written as a region`;
      regions.push(region);
    }
  }
  const tests: DraftCondition[] = [];
  const tooMany = 'the zone lists more places than a condition can hold';
  if (countries.length) tests.push(condition('shipping_country', 'in', countries));
  if (regions.length) tests.push(condition('shipping_region', 'in', [...new Set(regions)]));
  if (rest && listed.length) tests.push(condition('shipping_country', 'not_in', listed));
  if (tests.some((t) => Array.isArray(t.value) && t.value.length > LIMITS.listValues))
    return tooMany;
  if (rest && !listed.length) return null;
  if (!tests.length) return 'the zone lists no country, so checkout never uses it';
  return tests.length === 1 ? tests[0]! : group('OR', tests);
}

const quoted = (name: string) => `“${name}”`;
const plural = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** The plan's first line, in the merchant's words. */
export function importSummary(
  zones: number,
  rates: number,
  rules: number,
  skipped: number,
): string {
  const head = `${plural(zones, 'zone')}, ${plural(rates, 'rate')} → 1 ruleset of ${plural(rules, 'rule')}`;
  if (!skipped) return `${head}.`;
  return `${head}; ${plural(skipped, 'rate')} cannot be imported:`;
}

/**
 * Turns the shop's profiles into one ruleset (`currency`: the store's).
 * Imported: the active merchant rates of the General profile's first
 * location group (the one checkout ships from: docs/shopify.md), each as one
 * rule "zone AND price and weight bounds → set the fee, the rate's name and
 * description, stop". A zone's rates that checkout would show side by side
 * under different names cannot all be imported (Ratesmith answers one
 * regular rate a cart): the first in Shopify's order is kept and each other
 * is listed with the rate it collides with. Rates of one name that overlap
 * are kept, cheapest first, since checkout shows the cheapest of one name.
 */
export function importNativeRates(profiles: NativeProfile[], currency: string): NativeRateImport {
  // Ids count from 1 in every import, so one shop's profiles always give the same rules.
  conditionSeq = 0;
  const skipped: SkippedRate[] = [];
  const kept: {
    zone: string;
    method: Method;
    price: Range;
    weight: Range;
    test: DraftCondition | DraftGroup | null;
    cents: number;
  }[][] = [];
  let zones = 0;
  let rates = 0;
  const generalFirst = [...profiles].sort((a, b) => Number(b.default) - Number(a.default));
  for (const profile of generalFirst) {
    profile.profileLocationGroups.forEach((locationGroup, groupIndex) => {
      const listed = [
        ...new Set(
          locationGroup.locationGroupZones.flatMap((z) =>
            z.zone.countries.flatMap((c) =>
              c.code.restOfWorld ? [] : [(c.code.countryCode ?? '').toUpperCase()],
            ),
          ),
        ),
      ].sort();
      const seen = new Map<string, string>();
      for (const { zone, methodDefinitions } of locationGroup.locationGroupZones) {
        zones++;
        rates += methodDefinitions.length;
        const skip = (m: Method, reason: string) =>
          skipped.push({ id: m.id, profile: profile.name, zone: zone.name, name: m.name, reason });
        let zoneProblem: string | undefined;
        if (!profile.default)
          zoneProblem = `the profile ${quoted(profile.name)} applies only to its own products, and a ruleset applies to every cart`;
        else if (groupIndex > 0)
          zoneProblem =
            'it ships from another location group than the first one, which checkout uses';
        let test: DraftCondition | DraftGroup | null = null;
        if (!zoneProblem) {
          for (const c of zone.countries) {
            const code = c.code.countryCode?.toUpperCase();
            if (!code) continue;
            const other = seen.get(code);
            if (other !== undefined && other !== zone.id)
              zoneProblem = `the country ${code} is in another zone of the profile too`;
            seen.set(code, zone.id);
          }
        }
        if (!zoneProblem) {
          const found = zoneTest(zone, listed);
          if (typeof found === 'string') zoneProblem = found;
          else test = found;
        }
        const zoneKept: (typeof kept)[number] = [];
        /**
         * Rates left out that checkout still shows: a kept rate of the same name may lose
         * to one of them (checkout shows the cheapest of a name). Unknown bounds or price:
         * it may win anywhere.
         */
        const shown: { name: string; price?: Range; weight?: Range; cents?: number }[] = [];
        const leaveOut = (
          m: Method,
          reason: string,
          known: Omit<(typeof shown)[number], 'name'> = {},
        ) => {
          skip(m, reason);
          shown.push({ name: m.name, ...known });
        };
        for (const m of methodDefinitions) {
          if (m.rateProvider.__typename === 'DeliveryParticipant') {
            const app = m.rateProvider.carrierService.formattedName || m.name;
            skip(m, `its rates are calculated by the carrier app ${quoted(app)}`);
            continue;
          }
          if (!m.active) {
            skip(m, 'it is disabled in Shopify, so checkout does not show it');
            continue;
          }
          if (zoneProblem) {
            skip(m, zoneProblem);
            continue;
          }
          const price = m.rateProvider.price;
          const cents = decimal(price.amount);
          if (price.currencyCode !== currency) {
            leaveOut(
              m,
              `it is priced in ${price.currencyCode}, not the store's currency (${currency})`,
            );
            continue;
          }
          if (!cents || cents.scale > 2 || Number(cents.n) / 10 ** cents.scale > LIMITS.maxAmount) {
            leaveOut(m, `its price ${price.amount} is not an amount a rule can set`);
            continue;
          }
          if (
            !m.name.trim() ||
            m.name.length > LIMITS.shortText ||
            (m.description ?? '').length > LIMITS.shortText
          ) {
            leaveOut(m, `its name and description must be 1 to ${LIMITS.shortText} characters`);
            continue;
          }
          const ranges = rangesOf(m.methodConditions, currency);
          if (typeof ranges === 'string') {
            if (ranges === NEVER_SHOWN) skip(m, ranges);
            else leaveOut(m, ranges);
            continue;
          }
          const centsOf = Number(divide(cents.n * BigInt(100), TEN ** BigInt(cents.scale), false));
          const clash = zoneKept.find(
            (k) =>
              k.method.name !== m.name &&
              overlap(k.price, ranges.price) &&
              overlap(k.weight, ranges.weight),
          );
          if (clash) {
            leaveOut(
              m,
              `checkout shows it next to ${quoted(clash.method.name)} for some carts, and Ratesmith answers one rate a cart`,
              { ...ranges, cents: centsOf },
            );
            continue;
          }
          zoneKept.push({ zone: zone.name, method: m, ...ranges, test, cents: centsOf });
        }
        const beaten = (k: (typeof zoneKept)[number]) =>
          shown.some(
            (o) =>
              o.name === k.method.name &&
              (!o.price || overlap(o.price, k.price)) &&
              (!o.weight || overlap(o.weight, k.weight)) &&
              (o.cents === undefined || o.cents <= k.cents),
          );
        for (const k of zoneKept.filter(beaten))
          skip(
            k.method,
            `for some carts checkout shows instead another ${quoted(k.method.name)} rate, which cannot be imported`,
          );
        kept.push(zoneKept.filter((k) => !beaten(k)));
      }
    });
  }
  const filters: FilterDraft[] = [];
  const imported: ImportedRate[] = [];
  for (const zoneKept of kept) {
    // Cheapest first: of one name, checkout shows the cheapest that applies.
    for (const k of [...zoneKept].sort((a, b) => a.cents - b.cents)) {
      const m = k.method;
      if (filters.length >= LIMITS.filtersPerRuleset) {
        skipped.push({
          id: m.id,
          profile: '',
          zone: k.zone,
          name: m.name,
          reason: `a ruleset holds at most ${LIMITS.filtersPerRuleset} rules`,
        });
        continue;
      }
      const rules = [...(k.test ? [k.test] : []), ...cartConditions(m, k.price, k.weight)];
      imported.push({
        id: m.id,
        zone: k.zone,
        name: m.name,
        price: (k.cents / 100).toFixed(2),
        rule: filters.length,
      });
      filters.push({
        id: `native-${filters.length + 1}`,
        name: `${k.zone}: ${m.name}`.slice(0, LIMITS.filterName),
        raw_query: group('AND', rules),
        action_type: k.cents === 0 ? 0 : 5,
        action_data: k.cents === 0 ? null : k.cents / 100,
        rule_product_limit_amount: null,
        global_rule_action: 0,
        is_shipping_overridden: 'Yes',
        shipping_name: m.name,
        shipping_description: m.description ?? '',
        bump_shipping_name: '',
        bump_shipping_description: '',
        post_processing_action_type: 0,
      });
    }
  }
  return {
    zones,
    rates,
    filters,
    imported,
    skipped,
    summary: importSummary(zones, rates, filters.length, skipped.length),
  };
}

/**
 * The location group checkout ships from: the General profile's first
 * (docs/shopify.md, "Native rates"); null when the shop has none. A shadow
 * compares Ratesmith with this group's rates.
 */
export function checkoutLocationGroup(profiles: NativeProfile[]): NativeLocationGroup | null {
  return profiles.find((p) => p.default)?.profileLocationGroups[0] ?? null;
}
