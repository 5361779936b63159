import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { shopNamedByPayload, WEBHOOK_TOPICS } from './payload';

describe('shopNamedByPayload', () => {
  const shop = 'a-shop.myshopify.com';

  it('reads myshopify_domain for app/uninstalled (domain may be a custom one)', () => {
    const body = JSON.stringify({
      domain: 'shop.example.com',
      myshopify_domain: 'A-Shop.myshopify.com',
    });
    expect(shopNamedByPayload('app/uninstalled', body)).toBe(shop);
    expect(shopNamedByPayload('app/uninstalled', JSON.stringify({ domain: shop }))).toBeUndefined();
  });

  it.each(['shop/redact', 'customers/redact', 'customers/data_request'] as const)(
    'reads shop_domain for %s',
    (topic) => {
      expect(shopNamedByPayload(topic, JSON.stringify({ shop_id: 1, shop_domain: shop }))).toBe(
        shop,
      );
      expect(shopNamedByPayload(topic, JSON.stringify({ myshopify_domain: shop }))).toBeUndefined();
    },
  );

  it.each(['', 'not json', '[]', 'null', '"a-shop.myshopify.com"', '{"shop_domain":7}'])(
    'names no shop for %j',
    (body) => {
      expect(shopNamedByPayload('shop/redact', body)).toBeUndefined();
    },
  );
});

describe('WEBHOOK_TOPICS', () => {
  it('are exactly the topics shopify.app.toml subscribes to', () => {
    const toml = readFileSync(join(__dirname, '../../../../../shopify.app.toml'), 'utf8');
    const subscribed = [...toml.matchAll(/^\s*(?:compliance_)?topics\s*=\s*\[([^\]]*)\]/gm)]
      .flatMap((m) => m[1]!.split(','))
      .map((t) => t.trim().replace(/^"|"$/g, ''))
      .filter(Boolean);
    expect(subscribed.sort()).toEqual([...WEBHOOK_TOPICS].sort());
  });

  it('the app uses Shopify-managed install (token exchange on the first embedded load)', () => {
    const toml = readFileSync(join(__dirname, '../../../../../shopify.app.toml'), 'utf8');
    expect(toml).toMatch(/^use_legacy_install_flow = false$/m);
  });
});
