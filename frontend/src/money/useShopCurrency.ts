import { useEffect, useState } from 'react';
import { useOptionalApi, type ApiClient, type ShopReply } from '../api';

type ShopFormats = ShopReply['shop'];

/** One read per api client (one per shop session): the shop's formats do not change while the admin is open. */
const loaded = new WeakMap<ApiClient, Promise<ShopFormats | null>>();
/** The answers already in: a screen opened after them renders with them at once, not twice. */
const known = new WeakMap<ApiClient, ShopFormats>();

function shopFormats(api: ApiClient): Promise<ShopFormats | null> {
  let pending = loaded.get(api);
  if (!pending) {
    pending = api
      .get<ShopReply>('/api/shop')
      .then((reply) => {
        known.set(api, reply.shop);
        return reply.shop;
      })
      .catch(() => {
        // Amounts then show as plain numbers and weights start in kg; the next page asks again.
        loaded.delete(api);
        return null;
      });
    loaded.set(api, pending);
  }
  return pending;
}

/** A figure of GET /api/shop, or null while unknown (and without an api client). */
function useShopFormat<K extends keyof ShopFormats>(key: K): ShopFormats[K] | null {
  const api = useOptionalApi();
  const [value, setValue] = useState<ShopFormats[K] | null>(
    () => (api && known.get(api)?.[key]) || null,
  );
  useEffect(() => {
    if (!api) return;
    let live = true;
    void shopFormats(api).then((formats) => {
      if (live) setValue(formats?.[key] || null);
    });
    return () => {
      live = false;
    };
  }, [api, key]);
  return value;
}

/**
 * Starts reading the shop's formats now, for a screen whose fields show them
 * once its own data is in: they are then usually known by its first render.
 */
export function usePreloadShopFormats(): void {
  const api = useOptionalApi();
  useEffect(() => {
    if (api) void shopFormats(api);
  }, [api]);
}

/** The shop's currency code ("EUR"), or null while unknown. */
export const useShopCurrency = (): string | null => useShopFormat('currency_code');

/** The store's time zone (Shopify's ianaTimezone), or null while unknown. */
export const useShopTimezone = (): string | null => useShopFormat('timezone');

/** The shop's default weight unit (g, kg, lb or oz), or null while unknown. */
export const useShopWeightUnit = (): ShopFormats['weight_unit'] | null =>
  useShopFormat('weight_unit');
