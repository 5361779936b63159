import { useEffect, useState } from 'react';
import { useOptionalApi, type ApiClient, type ShopReply } from '../api';

type ShopFormats = ShopReply['shop'];

/** One read per api client (one per shop session): the shop's formats do not change while the admin is open. */
const loaded = new WeakMap<ApiClient, Promise<ShopFormats | null>>();

function shopFormats(api: ApiClient): Promise<ShopFormats | null> {
  let pending = loaded.get(api);
  if (!pending) {
    pending = api
      .get<ShopReply>('/api/shop')
      .then((reply) => reply.shop)
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
  const [value, setValue] = useState<ShopFormats[K] | null>(null);
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

/** The shop's currency code ("EUR"), or null while unknown. */
export const useShopCurrency = (): string | null => useShopFormat('currency_code');

/** The shop's default weight unit (g, kg, lb or oz), or null while unknown. */
export const useShopWeightUnit = (): ShopFormats['weight_unit'] | null =>
  useShopFormat('weight_unit');
