import { ConfigError } from '@ratesmith/kit';
import { loadConfig } from './config';

const base = { NATS_URL: 'nats://127.0.0.1:4222', SHOPIFY_API_KEY: 'key' };

describe('catalog config', () => {
  it('has defaults for everything but NATS and the API key', () => {
    expect(loadConfig(base)).toMatchObject({
      SHOPIFY_TIMEOUT_MS: 5000,
      SHOPIFY_THROTTLE_RETRIES: 3,
      CATALOG_DEADLINE_MS: 10_000,
      APP_URL: 'http://localhost',
    });
  });

  it('names every missing or bad variable at once', () => {
    expect(() => loadConfig({ SHOPIFY_THROTTLE_RETRIES: '99' })).toThrow(ConfigError);
    try {
      loadConfig({ SHOPIFY_THROTTLE_RETRIES: '99' });
    } catch (err) {
      const text = (err as Error).message;
      expect(text).toMatch(/NATS_URL is required/);
      expect(text).toMatch(/SHOPIFY_API_KEY is required/);
      expect(text).toMatch(/SHOPIFY_THROTTLE_RETRIES/);
    }
  });

  it('refuses a Shopify stand-in in production', () => {
    expect(() =>
      loadConfig({ ...base, NODE_ENV: 'production', SHOPIFY_API_ORIGIN: 'http://127.0.0.1:1' }),
    ).toThrow(/SHOPIFY_API_ORIGIN cannot be set when NODE_ENV is production/);
  });
});
