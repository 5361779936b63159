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

  it("reads bulk export files from Shopify's storage, and from others only as asked", () => {
    expect(loadConfig(base).PRODUCT_EXPORT_FILE_ORIGINS).toEqual([
      'https://storage.googleapis.com',
    ]);
    expect(
      loadConfig({
        ...base,
        PRODUCT_EXPORT_FILE_ORIGINS: 'https://storage.googleapis.com, http://127.0.0.1:4000/x',
      }).PRODUCT_EXPORT_FILE_ORIGINS,
    ).toEqual(['https://storage.googleapis.com', 'http://127.0.0.1:4000']);
    expect(() =>
      loadConfig({
        ...base,
        NODE_ENV: 'production',
        PRODUCT_EXPORT_FILE_ORIGINS: 'http://127.0.0.1:4000',
      }),
    ).toThrow(/PRODUCT_EXPORT_FILE_ORIGINS/);
    expect(() => loadConfig({ ...base, PRODUCT_EXPORT_FILE_ORIGINS: 'not a url' })).toThrow(
      /not an origin/,
    );
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
