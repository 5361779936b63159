import type { WebVitalsReport } from '@ratesmith/contracts/edge';
import { resolveShopContext } from '../shell/environment';
import { shopApiClient } from '../shell/shop-client';

/**
 * POST /api/vitals through the screens' own api client (shopApiClient), so
 * the report carries the session token as every /api call does (App
 * Bridge's fetch inside the admin, the cached demo token outside it;
 * sendBeacon could not carry one), in a keepalive request that may outlive
 * the page. A lost report costs the merchant nothing: never shown, never
 * retried.
 */
export function sendWebVitals(report: WebVitalsReport): void {
  const shop = resolveShopContext(location.search, sessionStorage)?.shop;
  if (!shop) return;
  shopApiClient(shop)
    .post('/api/vitals', report, { keepalive: true })
    .catch(() => undefined);
}
