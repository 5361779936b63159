import type { ConfigError } from '@ratesmith/kit';
import { loadConfig } from './config';

const key = Buffer.alloc(32, 3).toString('base64');
const env = {
  NATS_URL: 'nats://127.0.0.1:4222',
  MONGODB_URI: 'mongodb://127.0.0.1:27017',
  SHOPIFY_API_KEY: 'key',
  SHOPIFY_API_SECRET: 'secret',
  APP_URL: 'https://app.example.com',
  RATE_ENGINE_URL: 'https://rates.example.com',
  TOKEN_ENCRYPTION_KEYS: `k1:${key}`,
};

const problems = (overrides: Record<string, string | undefined>) => {
  try {
    loadConfig({ ...env, ...overrides });
  } catch (err) {
    return (err as ConfigError).problems;
  }
  return [];
};

describe('auth config', () => {
  it('reads scopes and keys with defaults', () => {
    const config = loadConfig(env);
    expect(config.SHOPIFY_SCOPES).toEqual(['read_products', 'read_shipping', 'write_shipping']);
    expect(config.TOKEN_ENCRYPTION_KEYS.current).toBe('k1');
    expect(config.MONGODB_DB).toBe('ratesmith_auth');
    expect(config.SHOPIFY_API_ORIGIN).toBeUndefined();
    expect(config.SHOPIFY_TIMEOUT_MS).toBe(10_000);
    expect(config.SHOPIFY_THROTTLE_RETRIES).toBe(3);
  });

  it('bounds the retries of a throttled catalogue query', () => {
    expect(loadConfig({ ...env, SHOPIFY_THROTTLE_RETRIES: '0' }).SHOPIFY_THROTTLE_RETRIES).toBe(0);
    expect(problems({ SHOPIFY_THROTTLE_RETRIES: '11' })).toEqual([
      'SHOPIFY_THROTTLE_RETRIES Too big: expected number to be <=10',
    ]);
  });

  it('names every missing secret', () => {
    expect(
      problems({
        SHOPIFY_API_SECRET: undefined,
        TOKEN_ENCRYPTION_KEYS: undefined,
        RATE_ENGINE_URL: undefined,
      }),
    ).toEqual([
      'SHOPIFY_API_SECRET is required',
      'RATE_ENGINE_URL is required',
      'TOKEN_ENCRYPTION_KEYS is required',
    ]);
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(problems({ TOKEN_ENCRYPTION_KEYS: 'k1:c2hvcnQ=' })).toEqual([
      'TOKEN_ENCRYPTION_KEYS key k1 must be 32 bytes (base64 of 32 random bytes)',
    ]);
  });

  it('refuses the Shopify double and plain http in production', () => {
    expect(
      problems({
        NODE_ENV: 'production',
        SHOPIFY_API_ORIGIN: 'http://127.0.0.1:1',
        APP_URL: 'http://app.example.com',
      }),
    ).toEqual([
      'SHOPIFY_API_ORIGIN cannot be set when NODE_ENV is production',
      'APP_URL must be an https:// URL in production',
    ]);
  });
});
