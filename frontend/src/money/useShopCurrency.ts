import { useEffect, useState } from 'react';
import { useOptionalApi, type ApiClient, type ShopReply } from '../api';

/** One read per api client (one per shop session): the currency does not change while the admin is open. */
const loaded = new WeakMap<ApiClient, Promise<string | null>>();

function shopCurrency(api: ApiClient): Promise<string | null> {
  let pending = loaded.get(api);
  if (!pending) {
    pending = api
      .get<ShopReply>('/api/shop')
      .then((reply) => reply.shop.currency_code || null)
      .catch(() => {
        // Amounts then show as plain numbers; the next page asks again.
        loaded.delete(api);
        return null;
      });
    loaded.set(api, pending);
  }
  return pending;
}

/** The shop's currency code ("EUR"), or null while unknown (and without an api client). */
export function useShopCurrency(): string | null {
  const api = useOptionalApi();
  const [currency, setCurrency] = useState<string | null>(null);
  useEffect(() => {
    if (!api) return;
    let live = true;
    void shopCurrency(api).then((code) => {
      if (live) setCurrency(code);
    });
    return () => {
      live = false;
    };
  }, [api]);
  return currency;
}
