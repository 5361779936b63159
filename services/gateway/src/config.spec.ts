import { loadConfig } from './config';

const base = { NATS_URL: 'nats://127.0.0.1:4222', SHOPIFY_API_KEY: 'k', SHOPIFY_API_SECRET: 's' };

describe('gateway config', () => {
  it('refuses demo mode in production', () => {
    expect(() =>
      loadConfig({
        ...base,
        NODE_ENV: 'production',
        APP_URL: 'https://app.example.com',
        DEMO_MODE: 'true',
      }),
    ).toThrow('DEMO_MODE cannot be enabled when NODE_ENV is production');
  });

  it('needs an https APP_URL in production', () => {
    expect(() =>
      loadConfig({ ...base, NODE_ENV: 'production', APP_URL: 'http://app.example.com' }),
    ).toThrow(/APP_URL/);
    expect(
      loadConfig({ ...base, NODE_ENV: 'production', APP_URL: 'https://app.example.com' }).DEMO_MODE,
    ).toBe(false);
  });

  it('needs the Shopify credentials', () => {
    expect(() => loadConfig({ NATS_URL: 'n' })).toThrow(
      'SHOPIFY_API_KEY is required; SHOPIFY_API_SECRET is required',
    );
  });

  it('refuses demo shops that are not shop domains', () => {
    expect(() => loadConfig({ ...base, DEMO_SHOPS: 'good.myshopify.com,evil.com' })).toThrow(
      /DEMO_SHOPS/,
    );
    expect(
      loadConfig({ ...base, DEMO_SHOPS: ' A.myshopify.com , b.myshopify.com' }).DEMO_SHOPS,
    ).toEqual(['a.myshopify.com', 'b.myshopify.com']);
  });
});
