import { AppError } from './errors';
import { createLogger } from './logger';
import { requireShopDomain, SHOP_DOMAIN } from './shop-domain';
import { SHOPIFY_API_VERSION, shopifyLibrary } from './shopify';

describe('shopifyLibrary', () => {
  it('builds an embedded app on the pinned API version, host and scheme from the app URL', () => {
    const library = shopifyLibrary({
      apiKey: 'key',
      apiSecret: 'secret',
      appUrl: 'http://127.0.0.1:3000/ignored',
      scopes: ['read_products'],
      logger: createLogger('test', 'silent'),
    });
    expect(library.config.apiVersion).toBe(SHOPIFY_API_VERSION);
    expect(library.config.isEmbeddedApp).toBe(true);
    expect(library.config.hostName).toBe('127.0.0.1:3000');
    expect(library.config.hostScheme).toBe('http');
    expect(library.config.apiSecretKey).toBe('secret');
    expect(library.config.scopes?.toString()).toBe('read_products');
  });

  it('uses https for an https app URL and stays silent without a logger', () => {
    const library = shopifyLibrary({ apiKey: 'k', apiSecret: 's', appUrl: 'https://app.test' });
    expect(library.config.hostScheme).toBe('https');
    expect(library.config.hostName).toBe('app.test');
  });
});

describe('requireShopDomain', () => {
  it('answers a permanent shop domain as it is', () => {
    expect(requireShopDomain('my-store.myshopify.com')).toBe('my-store.myshopify.com');
    expect(requireShopDomain('0.myshopify.com')).toBe('0.myshopify.com');
  });

  it.each([
    '',
    'My-Store.myshopify.com',
    '-store.myshopify.com',
    'store.myshopify.com.evil.com',
    'evil.com/.myshopify.com',
    'store.myshopify.com ',
    'store.shopify.com',
    'a.b.myshopify.com',
    '127.0.0.1',
  ])('refuses %j with the invalid_data message', (shop) => {
    expect(SHOP_DOMAIN.test(shop)).toBe(false);
    expect(() => requireShopDomain(shop)).toThrow(
      new AppError('invalid_data', 'That is not a valid shop domain.'),
    );
    try {
      requireShopDomain(shop);
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).kind).toBe('invalid_data');
    }
  });
});
