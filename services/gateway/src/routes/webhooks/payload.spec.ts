import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deliveryProblem, payloadFits, productIdOf, WEBHOOK_TOPICS } from './payload';

describe('payloadFits', () => {
  const shop = 'a-shop.myshopify.com';
  const fits = (topic: Parameters<typeof payloadFits>[0], body: unknown) =>
    payloadFits(topic, typeof body === 'string' ? body : JSON.stringify(body), shop);

  it('app/uninstalled: myshopify_domain names the shop (domain may be a custom one)', () => {
    expect(
      fits('app/uninstalled', {
        domain: 'shop.example.com',
        myshopify_domain: 'A-Shop.myshopify.com',
      }),
    ).toBe(true);
    expect(fits('app/uninstalled', { domain: shop })).toBe(false);
    expect(fits('app/uninstalled', { myshopify_domain: 'b-shop.myshopify.com' })).toBe(false);
  });

  it.each(['shop/redact', 'customers/redact', 'customers/data_request'] as const)(
    '%s: shop_domain names the shop',
    (topic) => {
      expect(fits(topic, { shop_id: 1, shop_domain: shop })).toBe(true);
      expect(fits(topic, { shop_id: 1, shop_domain: 'b-shop.myshopify.com' })).toBe(false);
      expect(fits(topic, { myshopify_domain: shop })).toBe(false);
    },
  );

  it('app/scopes_update: its own shape, a list of scopes', () => {
    expect(
      fits('app/scopes_update', {
        id: 1,
        previous: ['read_products'],
        current: ['read_products', 'write_shipping'],
      }),
    ).toBe(true);
    expect(fits('app/scopes_update', { id: 1, current: 'read_products' })).toBe(false);
    expect(fits('app/scopes_update', { id: 1, current: [1] })).toBe(false);
    expect(fits('app/scopes_update', { shop_domain: shop })).toBe(false);
  });

  it.each(['products/create', 'products/update', 'products/delete'] as const)(
    '%s: a product with a numeric id (it names no shop: only the id is used)',
    (topic) => {
      expect(fits(topic, { id: 7880321196742, updated_at: '2026-11-29' })).toBe(true);
      expect(fits(topic, { id: 7 })).toBe(true);
      for (const id of [0, -1, 1.5, '7', null, 2 ** 53]) expect(fits(topic, { id })).toBe(false);
      expect(fits(topic, { shop_id: 1, shop_domain: shop })).toBe(false);
      expect(productIdOf('{"id":42}')).toBe('42');
      expect(productIdOf('{"id":"42"}')).toBeUndefined();
    },
  );

  it.each(['', 'not json', '[]', 'null', '"a-shop.myshopify.com"', '{"shop_domain":7}'])(
    'refuses %j',
    (body) => {
      expect(fits('shop/redact', body)).toBe(false);
      expect(fits('app/scopes_update', body)).toBe(false);
      expect(fits('products/update', body)).toBe(false);
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

describe('deliveryProblem', () => {
  const now = Date.UTC(2026, 10, 28, 12);
  const id = 'b54557e4-bdd9-4b37-8a5f-bf7d70bcd043';
  const hoursAgo = (h: number) => new Date(now - h * 3_600_000).toISOString();

  it("takes Shopify's deliveries: a UUID id, triggered now or retried within 48 hours", () => {
    expect(deliveryProblem(id, hoursAgo(0), now)).toBeUndefined();
    expect(deliveryProblem(id, hoursAgo(47.9), now)).toBeUndefined();
    expect(deliveryProblem(id, undefined, now)).toBeUndefined();
    expect(deliveryProblem('x'.repeat(64), hoursAgo(1), now)).toBeUndefined();
  });

  it('refuses an id over 64 characters, a triggered-at that is no date or older than 48 hours', () => {
    expect(deliveryProblem('x'.repeat(65), hoursAgo(1), now)).toBe('webhook id too long');
    expect(deliveryProblem(id, 'yesterday', now)).toBe('triggered-at not a date');
    expect(deliveryProblem(id, hoursAgo(48.1), now)).toBe('delivery older than 48 hours');
  });
});
