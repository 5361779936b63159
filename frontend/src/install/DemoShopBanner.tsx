import { Banner } from '@shopify/polaris';
import { useEffect, useState } from 'react';
import type { ApiClient } from '../api';
import { demoHost } from '../shell/environment';

/**
 * Demo mode only (no App Bridge on the page): the gateway hands out sessions
 * for its demo shops, so the install page offers the way into the app for the
 * first one, as the Shopify admin would open it after an install.
 */
export function DemoShopBanner({ api }: { api: ApiClient }) {
  const [shop, setShop] = useState<string | undefined>(undefined);
  useEffect(() => {
    const controller = new AbortController();
    api
      .get<{ shop?: string }>('/demo/session-token', { signal: controller.signal, timeoutMs: 5000 })
      .then((body) => setShop(body.shop))
      .catch(() => undefined); // not in demo mode: nothing to offer
    return () => controller.abort();
  }, [api]);
  if (!shop) return null;
  const url = `/?shop=${encodeURIComponent(shop)}&host=${demoHost(shop)}`;
  return (
    <Banner tone="info" title="Demo mode" action={{ content: `Open ${shop}`, url }}>
      <p>This server runs without Shopify. The demo shop is installed already.</p>
    </Banner>
  );
}
