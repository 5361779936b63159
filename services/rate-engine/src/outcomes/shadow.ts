import type { NativeLocationGroup } from '@ratesmith/contracts';
import { cartTotals, cents, nativeRates, zoneFor } from '@ratesmith/contracts/native-checkout';
import { Quoter, type CompiledSnapshot, type RateRequest } from '../engine';
import { keptLines, type ShadowCheckout } from './entries';

/**
 * Shadow mode (docs/shopify.md, "Shadow mode"): a shop's callbacks answer no
 * rate, so checkout shows only its native rates, and sampled signed ones are
 * compared after their answer was sent: what the shadow ruleset would have
 * quoted, and the native rates of the cart's zone (the snapshot holds the
 * location group read from Shopify when the shadow started). Like a recent
 * checkout, nothing beyond the cart's figures and country is kept.
 */

export const SHADOW_LIMITS = {
  /** Shadow carts compared a second over all shops. */
  perSecond: 50,
  /** A shop's shadow carts a minute. */
  perShopMinute: 600,
  /** Shops counted a minute (as the recent checkouts' sampler). */
  shops: 10_000,
};

/** A shop's shadow, compiled beside its snapshot. */
export interface CompiledShadow {
  compiled: CompiledSnapshot;
  native: NativeLocationGroup;
}

// Its own scratch space and no hot tier: the comparison never touches the callback's quoter.
const shadowQuoter = new Quoter();

/** The comparison of one callback of a shop in shadow; runs after its answer. */
export function compareShadow(
  shop: string,
  shadow: CompiledShadow,
  request: RateRequest,
  at: number,
): ShadowCheckout {
  const { rates } = shadowQuoter.quote(shadow.compiled, request, false);
  const province = request.region.slice(request.country.length + 1);
  const zone = zoneFor(shadow.native, { country: request.country, province });
  const native = zone ? nativeRates(zone, cartTotals(request.items)) : [];
  return {
    shop,
    at: new Date(at).toISOString(),
    country: request.country.slice(0, 3),
    currency: request.currency,
    lines: keptLines(request),
    quoted: rates.map((r) => ({
      serviceName: r.service_name,
      serviceCode: r.service_code,
      totalPrice: r.total_price,
    })),
    native: native.map((r) => ({
      serviceName: r.name,
      serviceCode: '',
      totalPrice: String(cents(r)),
    })),
    snapshotVersion: BigInt(shadow.compiled.version),
  };
}
