import type { CartLineJson } from './cart/line';
import type { FilterChange } from './filters/diff';
import type { FilterDraft } from './filters/draft';
import type { Weight, WeightUnit } from './filters/limits';
import type { SettingsJson } from './settings-json';

export {
  RECENT_CHECKOUT_BOUNDS,
  SETTINGS_MESSAGES,
  SETTINGS_TEXT_LABELS,
  settingsFieldOf,
  settingsFormProblems,
  type SettingsField,
  type SettingsFormValues,
} from './settings-fields';

/**
 * The buckets of the standard rate's total in per-filter analytics (cents,
 * both bounds inclusive; null: open-ended). The engine counts into them by
 * index, so the order is part of the stored data: only ever append.
 */
export const FEE_BUCKETS: readonly { fromCents: number; toCents: number | null }[] = [
  { fromCents: 0, toCents: 0 },
  { fromCents: 1, toCents: 500 },
  { fromCents: 501, toCents: 1000 },
  { fromCents: 1001, toCents: 2000 },
  { fromCents: 2001, toCents: 5000 },
  { fromCents: 5001, toCents: 10000 },
  { fromCents: 10001, toCents: null },
];

/** The FEE_BUCKETS index of a standard rate's total in cents (never negative in practice; below 0 counts as free). */
export function feeBucketOf(cents: number): number {
  let b = 0;
  while (b < FEE_BUCKETS.length - 1 && cents > FEE_BUCKETS[b]!.toCents!) b++;
  return b;
}

/** Per-filter analytics keep this many days (the counts' retention). */
export const ANALYTICS_MAX_DAYS = 30;

export type { FilterChange, FilterDraft, SettingsJson };

/**
 * @packageDocumentation
 * The JSON of the gateway's `/api`, one declaration per shape, read by the
 * gateway (its handlers build these types) and by the admin
 * (`@ratesmith/contracts/edge`, types only). The root README's "The API"
 * lists the routes. Money in carts and traces is integer cents.
 */

export interface StatusReply {
  status: boolean;
  message: string;
}

/**
 * Every refused or failed call: `errors` lists the problems when there are
 * several; `fields` gives a 400's problems that belong to one field of the
 * request body, by its key (`a.b` for a nested one), so a form can say each
 * at its field.
 */
export interface ErrorReply {
  status: false;
  message: string;
  errors?: string[];
  fields?: Record<string, string>;
}

export interface GlobalRuleSummary {
  id: string;
  name: string;
  position: number;
  filters_count: number;
  active: boolean;
  created_at: string;
}

/** GET /api/global-rules */
export interface GlobalRulesList {
  shop: { shop: string; global_rule_id: string | null };
  globalRules: GlobalRuleSummary[];
}

/** Create, duplicate and rename. */
export interface GlobalRuleReply extends StatusReply {
  rule: GlobalRuleSummary;
}

/** GET /api/global-rules/rules */
export interface RulesetFiltersReply {
  status: boolean;
  globalRule: GlobalRuleSummary;
  rules: FilterDraft[];
}

/** Save All of a ruleset or a product rule: the filters as stored. */
export interface FiltersSavedReply extends StatusReply {
  rules: FilterDraft[];
}

/** One kept version of a ruleset, product rule or settings. */
export interface VersionJson {
  kind: 'ruleset' | 'product_rule' | 'settings';
  subject_id: string;
  /** The ruleset's or product's name when the version was made. */
  subject_name: string;
  number: number;
  /** ISO 8601. */
  at: string;
  /** The Shopify staff user id of the session that saved it; '' when unknown. */
  user: string;
  event: 'save' | 'restore' | 'rename' | 'enable' | 'disable';
  summary: string;
  /** The change reached checkout. */
  checkout: boolean;
}

/** GET /api/global-rules/{id}/versions: newest first. */
export interface VersionsList {
  status: boolean;
  versions: VersionJson[];
}

/** GET /api/global-rules/{id}/versions/{n}: the version's filters and what it changed. */
export interface VersionReply {
  status: boolean;
  version: VersionJson;
  rules: FilterDraft[];
  /** The kept version compared with; null for the oldest kept (compared with no filters). */
  previous_number: number | null;
  changes: FilterChange[];
}

/** POST /api/global-rules/{id}/versions/{n}/restore */
export interface VersionRestoredReply extends FiltersSavedReply {
  /** The new version; null when the ruleset already had these filters. */
  number: number | null;
}

/** GET /api/activity: the latest changes to what checkout sees, newest first. */
export interface ActivityReply {
  status: boolean;
  activity: VersionJson[];
}

export interface ProductVariantJson {
  id: string;
  title: string;
  price: string;
}

export interface ProductRuleSummary {
  id: string;
  product_id: string;
  name: string;
  image: string;
  metadata: { image: { src: string }; variants: ProductVariantJson[] };
  variants_count: number;
  variant_ids: string[];
  active: boolean;
  filters: FilterDraft[];
  created_at: string;
}

/** GET /api/product-rules */
export interface ProductRulesList {
  products: { data: ProductRuleSummary[] };
}

/** GET /api/product-rules/{id}/rules */
export interface ProductRuleFiltersReply {
  status: boolean;
  productRule: ProductRuleSummary;
  rules: FilterDraft[];
}

/** GET and POST /api/settings */
export interface SettingsReply extends StatusReply {
  settings: SettingsJson;
}

/** A checkout outcome the Dashboard shows: the fallback rate answered, or no rate. */
export type CheckoutOutcomeJson = 'fallback' | 'no_rate';

/** A cart a carrier callback was answered for: figures only, nothing about the customer. */
export interface CheckoutCartJson {
  outcome: CheckoutOutcomeJson;
  /** RFC 3339. */
  at: string;
  /** Destination country code (may be empty). */
  country: string;
  currency: string;
  /** The cart's shipping lines (the cart line's JSON form, cart/line.ts). */
  lines: CartLineJson[];
}

/**
 * A rate a sampled callback answered, as the rules service stores it and the admin
 * shows it (proto/src/recent-rate.ts converts it); total_price in cents as a decimal string.
 */
export interface RecentRateJson {
  service_name: string;
  service_code: string;
  total_price: string;
  /** The delivery dates answered (`YYYY-MM-DD 00:00:00 ±HHMM`); absent without a window. */
  min_delivery_date?: string;
  max_delivery_date?: string;
}

/** A sampled carrier callback of Recent checkouts: figures and answers only, nothing about the customer. */
export interface RecentCheckoutJson {
  id: string;
  /** RFC 3339. */
  at: string;
  country: string;
  currency: string;
  lines: CartLineJson[];
  rates: RecentRateJson[];
  /** From the request's arrival to the answer sent, in milliseconds. */
  latency_ms: number;
}

/** GET /api/recent-checkouts: the shop's sampled callbacks, newest first. */
export interface RecentCheckoutsReply extends StatusReply {
  checkouts: RecentCheckoutJson[];
  /** The shop's settings: whether checkouts are sampled, and the days one is kept; and how many are kept at most. */
  enabled: boolean;
  retention_days: number;
  kept_at_most: number;
}

/** GET /api/recent-checkouts/{id}: one with the step-by-step trace of the preview (region and postal code never kept). */
export interface RecentCheckoutReply extends StatusReply {
  checkout: RecentCheckoutJson & { trace: PreviewTrace };
}

/** GET /api/checkout-outcomes: the last `days` days' callbacks that got the fallback rate or no rate. */
export interface CheckoutOutcomesReply extends StatusReply {
  days: number;
  fallback: number;
  no_rate: number;
  /** Of no_rate, the checkouts a Block Shipping rule answered: no rate on purpose. */
  blocked: number;
  /** Whether Settings turn the fallback rate on now. */
  fallback_enabled: boolean;
  /** The latest such carts, newest first. */
  carts: CheckoutCartJson[];
}

/** The window of both analytics answers: UTC days, both ends inclusive. */
export interface AnalyticsWindowJson {
  days: number;
  from: string;
  to: string;
  /** The first day in the window with any count for this shop, or null. */
  countingSince: string | null;
  /** Carrier callbacks answered in the window (every outcome). */
  checkouts: number;
}

/** One filter's counts over the window (docs/architecture.md, "Per-filter analytics"). */
export interface FilterCountsJson {
  filterId: string;
  /** Checkouts whose quote matched it. */
  matched: number;
  /** Of those, how many ended evaluation at it. */
  stopped: number;
  /** Cents: the sum of the changes its action made to the running fee (negative when it lowered it). */
  feeCents: number;
  /** Nothing matched it though the shop had checkouts and it is in use. */
  neverMatched: boolean;
}

/** GET /api/analytics?days=1..30. */
export interface AnalyticsReply extends StatusReply, AnalyticsWindowJson {
  /** Every day of the window, oldest first, zeros included (`standard`: had the standard rate; `bump`: of those, also the bump rate). */
  daily: AnalyticsDayJson[];
  /** The standard rate's totals in the FEE_BUCKETS, all of them, in order. */
  fees: AnalyticsFeeBucketJson[];
  /** The enabled ruleset's current filters, then each active product rule's, in editor order. */
  filters: AnalyticsFilterJson[];
}

/** A day of GET /api/analytics: `bump` counts part of `standard` (both rates answered). */
export interface AnalyticsDayJson {
  day: string;
  standard: number;
  bump: number;
  fallback: number;
  noRate: number;
}

/** Checkouts whose standard rate was fromCents..toCents (null: open-ended). */
export interface AnalyticsFeeBucketJson {
  fromCents: number;
  toCents: number | null;
  count: number;
}

/** A filter of GET /api/analytics, with its owner (a ruleset or a product rule). */
export interface AnalyticsFilterJson extends FilterCountsJson {
  owner: 'ruleset' | 'product_rule';
  ownerId: string;
  ownerName: string;
  filterName: string;
}

/** GET /api/analytics/filters?owner=ruleset|product_rule&id=...: one owner's current filters. */
export interface FilterAnalyticsReply extends StatusReply, AnalyticsWindowJson {
  /** The ruleset is the enabled one; the product rule is active. */
  inUse: boolean;
  filters: FilterCountsJson[];
}

/** Whether checkout calls the app, as Shopify last reported it. */
export type CarrierServiceState = 'active' | 'inactive' | 'needs_plan' | 'error' | 'unknown';

export interface CarrierServiceStatus {
  state: CarrierServiceState;
  /** Shopify's reason when it refused; empty otherwise. */
  detail: string;
  checked_at: string | null;
  /**
   * Where checkout asks Ratesmith, as last read from the shop's delivery
   * profiles: the zones the carrier service takes part in, of all zones;
   * null when not read yet (or Shopify could not be asked).
   */
  zones: { asking: number; total: number } | null;
}

/** GET /api/carrier-service, POST /api/carrier-service/check */
export interface CarrierServiceReply extends StatusReply {
  carrier_service: CarrierServiceStatus;
}

/**
 * One country of a shipping zone: its ISO 3166-1 alpha-2 code (empty for
 * "rest of world") and the provinces the zone covers as Shopify lists them
 * (ISO 3166-2 subdivision codes without the country, e.g. "ON": every one
 * of the country's when the zone covers it whole; empty for a country
 * Shopify keeps no provinces for). The admin says "all states" when the
 * list is the country's whole (frontend/src/zones/coverage.ts).
 */
export interface ShippingZoneCountryJson {
  code: string;
  rest_of_world: boolean;
  provinces: string[];
}

/** A zone of a delivery profile (Shopify's DeliveryZone). */
export interface ShippingZoneJson {
  /** Shopify's gid (gid://shopify/DeliveryZone/…). */
  id: string;
  name: string;
  countries: ShippingZoneCountryJson[];
  /** Checkout asks Ratesmith for rates to this zone (the carrier service takes part in it). */
  ratesmith: boolean;
}

/** A delivery profile (Shopify's DeliveryProfile); `default` is the General profile. */
export interface ShippingProfileJson {
  id: string;
  name: string;
  default: boolean;
  zones: ShippingZoneJson[];
}

/** GET /api/shipping-zones, POST /api/shipping-zones */
export interface ShippingZonesReply extends StatusReply {
  profiles: ShippingProfileJson[];
  /** The merchant has chosen zones at least once (the first-install proposal is answered). */
  confirmed: boolean;
}

/**
 * GET /api/shipping-import (the plan, nothing written) and POST
 * /api/shipping-import with the plan's `plan` (writes one new, disabled
 * ruleset): the shop's Shopify rates as rules (docs/shopify.md, "Importing
 * the shop's Shopify rates").
 */
export interface ShippingImportReply extends StatusReply {
  /** "4 zones, 8 rates → 1 ruleset of 6 rules; 2 rates cannot be imported:" */
  summary: string;
  zones: number;
  rates: number;
  /** The name the new ruleset gets. */
  ruleset_name: string;
  /** Each rule of the new ruleset, in order. */
  rules: { name: string; zone: string; rate: string; price: string }[];
  /** Every rate left out, with why, in the merchant's words. */
  skipped: { profile: string; zone: string; rate: string; reason: string }[];
  /** The plan's fingerprint: Confirm sends it back, so what is written is what was shown. */
  plan: string;
  /** After Confirm: the ruleset written (disabled). */
  ruleset?: { id: string; name: string };
}

/** POST /api/shipping-import */
export interface ShippingImportConfirm {
  plan: string;
}

/** Most zone ids one POST /api/shipping-zones takes: Shopify takes 250 items in an input list. */
export const MAX_ZONE_IDS = 250;

/**
 * POST /api/shipping-zones: add Ratesmith to these zones (`ratesmith: true`)
 * or take it out of them; at most 250 ids. An empty list changes no zone and
 * only records that the merchant answered the first-install proposal.
 */
export interface ShippingZonesUpdate {
  zone_ids: string[];
  ratesmith: boolean;
}

/**
 * GET /api/shop: the shop of the session token, its store currency (Shopify's
 * Shop.currencyCode and currencyFormats.moneyFormat) and its default weight
 * unit (Shop.weightUnit, as a unit of the filter language: g, kg, lb or oz).
 */
export interface ShopReply {
  status: boolean;
  shop: {
    shop: string;
    currency_code: string;
    money_format: string;
    weight_unit: WeightUnit;
    /** Shopify's ianaTimezone: delivery dates count in it (Settings shows it; it is not typed). */
    timezone: string;
  };
}

/** The kinds of product text the rule editor's pickers list (GET /api/product-texts?kind=). */
export const PRODUCT_TEXT_KINDS = ['vendor', 'type', 'tag'] as const;
export type ProductTextKind = (typeof PRODUCT_TEXT_KINDS)[number];

/** GET /api/product-texts: the shop's vendors, types or tags containing the search. */
export interface ProductTextsReply {
  status: boolean;
  /** At most 50, in Shopify's order. */
  values: string[];
  /** False when the shop has more than the 1,000 read: a value not listed may still exist. */
  complete: boolean;
}

/** A variant of a store product with its shipping weight (null when Shopify has none the app knows). */
export interface StoreVariant {
  /** gid://shopify/ProductVariant/<n> */
  id: string;
  title: string;
  /** Shopify's decimal string in the shop's currency. */
  price: string;
  /** One unit's weight in the unit Shopify keeps it in. */
  weight: Weight | null;
}

/** GET /api/product-rules/shopify-products/{id}/variants: the product's first 50 variants. */
export interface StoreVariantsReply {
  status: boolean;
  variants: StoreVariant[];
}

/** A cart line of the preview, as Shopify's rate request has it. */
export interface PreviewItem {
  price: number;
  quantity: number;
  /** Grams of one unit. */
  grams?: number;
  product_id?: number;
  variant_id?: number;
  requires_shipping?: boolean;
  name?: string;
}

/** POST /api/rate-preview: a cart, and draft filters to use instead of the active ruleset's. */
export interface PreviewRequest {
  rate: {
    destination: { country: string; province?: string; postal_code?: string };
    currency: string;
    items: PreviewItem[];
  };
  /**
   * Unsaved filters: in place of the active ruleset's, or, with
   * productRuleId, in place of that product rule's (the ruleset as published).
   */
  draft?: { globalRuleId?: string; productRuleId?: string; rules: FilterDraft[] };
  /** When the order is placed (ISO 8601 with `Z` or an offset), for delivery dates; now when left out. */
  ordered_at?: string;
}

/**
 * POST /api/test-checkout, demo mode only: the preview's cart and address,
 * sent through the Shopify double's checkout (tools/shopify-double/README.md,
 * "Delivery profiles, zones and checkout"), which calls the app's signed
 * carrier callback as Shopify's checkout does.
 */
export interface TestCheckoutRequest {
  rate: PreviewRequest['rate'];
}

/** What the test checkout got: the zone, the app's rates as checkout read them, or why none, in words. */
export interface TestCheckoutReply extends StatusReply {
  /** The shipping zone of the address; null when the shop ships to no zone holding it. */
  zone: string | null;
  /** Whether checkout asked the app (an active Ratesmith method in that zone). */
  asked: boolean;
  /** The app's rates, as checkout got them; empty when it was not asked or answered none. */
  rates: RateJson[];
  /** The outcome in words (always set). */
  message: string;
}

/** Shopify's rate JSON, as checkout gets it. */
export interface RateJson {
  service_name: string;
  service_code: string;
  total_price: string;
  description: string;
  currency: string;
  /** Both set when the rate has a delivery window (`YYYY-MM-DD 00:00:00 ±HHMM`), else neither. */
  min_delivery_date?: string;
  max_delivery_date?: string;
}

/** One filter the quote walked (the rate engine's own trace type too). */
export interface TraceStep {
  scope: 'global' | 'product';
  /** Only on product steps. */
  productRuleId?: string;
  productId?: string;
  filterId: string;
  filterName: string;
  matched: boolean;
  actionType?: number;
  feeBefore: number;
  feeAfter: number;
  stopped: boolean;
  /** Grams of the whole cart, when the filter's conditions compare it. */
  cartWeight?: number;
  /** The cart's `COUNTRY-PROVINCE` (empty without a province), when compared. */
  region?: string;
  /** The cart's normalised postal code, when compared. */
  postalCode?: string;
  /** Action 6, matched: grams of the units in scope and the weight steps charged. */
  scopeWeight?: number;
  weightSteps?: number;
}

export interface PreviewTrace {
  steps: TraceStep[];
  freeItems: null | { totalUnits: number; freeUnits: number; feeBefore: number; feeAfter: number };
  matchedAny: boolean;
  /** A matched Block Shipping filter ended evaluation: checkout got no rates. */
  blocked: boolean;
  /** The regular fee in cents (0 when nothing matched or shipping was blocked). */
  fee: number;
}

export interface PreviewAnswer {
  status: boolean;
  rates: RateJson[];
  trace: PreviewTrace;
}

/** `GET /api/config/export`: a shop's whole configuration, the file `POST /api/config/import` takes. */
export interface ConfigDocument {
  format: 'ratesmith-config';
  version: 1;
  /** ISO 8601. */
  exported_at: string;
  /** In the shop's order; at most one enabled (the active ruleset). */
  rulesets: { name: string; enabled: boolean; filters: FilterDraft[] }[];
  /** Shopify's numeric ids; no variant_ids (or none) means every variant. */
  product_rules: {
    product_id: string;
    variant_ids?: string[];
    enabled: boolean;
    filters: FilterDraft[];
  }[];
  settings: SettingsJson;
}

/** What an import does (`dry_run=1`) or did: replaces are by ruleset name and by product. */
export interface ConfigImportPlan {
  rulesets: { name: string; action: 'add' | 'replace'; filters_count: number; enabled: boolean }[];
  product_rules: {
    product_id: string;
    title: string;
    action: 'add' | 'replace';
    filters_count: number;
    enabled: boolean;
  }[];
  /** Values as JSON text; `enabled_ruleset` is the active ruleset's name (null: none). */
  settings: { field: string; before: string; after: string }[];
  /** Product rules not imported: the product (empty variant_ids) or these variants are not in this store. */
  missing_products: { product_id: string; variant_ids: string[] }[];
}

export interface ConfigImportReply extends StatusReply {
  dry_run: boolean;
  applied: boolean;
  plan: ConfigImportPlan;
  /** The editor's messages, each with the ruleset, product rule or settings it is about. */
  errors: string[];
}

/**
 * The admin's pages as the route patterns of frontend/src/routes.tsx (ids as
 * `:id`, anything unknown as `/*`): the only `page` POST /api/vitals takes,
 * so a report never carries an id or a shop.
 */
export const ADMIN_PAGES = [
  '/',
  '/dashboard',
  '/global-rules',
  '/edit-global-rule/:id',
  '/product-rules',
  '/edit-product-rule/:id',
  '/recent-checkouts',
  '/shipping-zones',
  '/settings',
  '/backup',
  '/faq',
  '/*',
] as const;
export type AdminPage = (typeof ADMIN_PAGES)[number];

/**
 * The web vitals the admin reports and the most each may be (LCP and INP in
 * milliseconds, CLS unitless, as the web-vitals library measures them). A
 * value past its bound is no measurement of a real page view: refused.
 */
export const WEB_VITAL_MAX = { LCP: 300_000, CLS: 10, INP: 60_000 } as const;
export type WebVitalName = keyof typeof WEB_VITAL_MAX;

/** How the page view began, in the web-vitals library's words (its `navigationType`). */
export const NAVIGATION_TYPES = [
  'navigate',
  'reload',
  'back-forward',
  'back-forward-cache',
  'prerender',
  'restore',
  'soft-navigation',
] as const;
export type NavigationType = (typeof NAVIGATION_TYPES)[number];

/**
 * POST /api/vitals: one page view's web vitals, each at most once, measured
 * in the merchant's browser (docs/performance.md, "Web vitals from merchants'
 * browsers"). Nothing else: no URL, id, shop or user.
 */
export interface WebVitalsReport {
  page: AdminPage;
  navigation: NavigationType;
  metrics: { name: WebVitalName; value: number }[];
}

/** How a shadow cart compares (docs/shopify.md, "Shadow mode"). */
export type ShadowVerdict = 'same' | 'cheaper' | 'dearer' | 'no_rate' | 'only_ratesmith';

/** A cart seen in shadow: figures only, as a recent checkout keeps them. */
export interface ShadowCartJson {
  at: string;
  country: string;
  currency: string;
  lines: CartLineJson[];
  /** Ratesmith's regular rate for the cart (cents), null when it would have answered none. */
  ratesmith: { name: string; cents: number } | null;
  /** The cheapest native rate checkout showed (its default), null when none. */
  native: { name: string; cents: number } | null;
  verdict: ShadowVerdict;
  /** Ratesmith's cents minus the native cents; null unless both had a rate. */
  difference: number | null;
}

/**
 * GET /api/shadow: the shadow report. POST /api/shadow `{ ruleset_id }` starts
 * a shadow (the native rates read from Shopify now); DELETE stops it.
 */
export interface ShadowReportReply extends StatusReply {
  /** Null: no shadow runs. */
  shadow: { ruleset_id: string; ruleset_name: string; started_at: string } | null;
  seen: number;
  counts: Record<ShadowVerdict, number>;
  /** Differences (cents) of carts both priced, by range; `from`/`to` inclusive, null: unbounded. */
  distribution: { from: number | null; to: number | null; count: number }[];
  /** The 20 largest differences, largest first. */
  largest: ShadowCartJson[];
  /** The last go-live while it can be undone (POST /api/shadow/undo-go-live); null: none. */
  go_live: GoLiveRecordJson | null;
}

/** A Shopify rate a go-live turns off (nativeRatesToTurnOff, proto/src/native-rates/go-live.ts). */
export interface NativeRateOff {
  /** Shopify's DeliveryMethodDefinition gid. */
  id: string;
  zone: string;
  name: string;
  /** Its price and conditions in a few words: "5.00 USD, order up to 49.99 USD". */
  price: string;
}

/** What a go-live changed, so Undo can put it back. */
export interface GoLiveRecordJson {
  ruleset_id: string;
  ruleset_name: string;
  /** ISO 8601. */
  at: string;
  /** The Shopify rates it turned off (or was to: see the go-live's message). */
  turned_off: NativeRateOff[];
}

/**
 * GET /api/shadow/go-live: the Shopify rates "Also turn off Shopify's own
 * rates" would turn off; `message` says why there are none when checkout does
 * not call Ratesmith.
 */
export interface GoLivePlanReply extends StatusReply {
  rates: NativeRateOff[];
}

/**
 * POST /api/shadow/go-live: `turn_off_native`, the ids of the plan's rates
 * exactly as the merchant confirmed them; empty or absent: Shopify's rates
 * stay on.
 */
export interface GoLiveBody {
  turn_off_native?: string[];
}

/** POST /api/shadow */
export interface ShadowStart {
  ruleset_id: string;
}
