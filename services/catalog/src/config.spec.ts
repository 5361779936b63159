import { ConfigError } from '@ratesmith/kit';
import { loadConfig } from './config';

const base = { NATS_URL: 'nats://127.0.0.1:4222' };

describe('catalog config', () => {
  it('has defaults for everything but NATS', () => {
    expect(loadConfig(base)).toMatchObject({ CATALOG_DEADLINE_MS: 10_000 });
  });

  it('names every missing or bad variable at once', () => {
    expect(() => loadConfig({ CATALOG_DEADLINE_MS: '-1' })).toThrow(ConfigError);
    try {
      loadConfig({ CATALOG_DEADLINE_MS: '-1' });
    } catch (err) {
      const text = (err as Error).message;
      expect(text).toMatch(/NATS_URL is required/);
      expect(text).toMatch(/CATALOG_DEADLINE_MS/);
    }
  });

  it("reads none of Shopify's settings: auth makes the Shopify calls", () => {
    const config = loadConfig({
      ...base,
      SHOPIFY_API_ORIGIN: 'http://127.0.0.1:1',
      SHOPIFY_TIMEOUT_MS: '1',
      SHOPIFY_THROTTLE_RETRIES: '9',
    });
    expect(Object.keys(config).filter((k) => k.startsWith('SHOPIFY_'))).toEqual([]);
  });
});
