import { loadConfig } from './config';

const base = { NATS_URL: 'nats://127.0.0.1:4222', SHOPIFY_API_SECRET: 'secret' };

describe('rate engine configuration', () => {
  it('has safe defaults: present signatures verified, 6,000 callbacks a minute per key, 10,000 cached snapshots, port 8082', () => {
    expect(loadConfig(base)).toMatchObject({
      CARRIER_HMAC_MODE: 'verify-present',
      CARRIER_RATE_LIMIT: 6000,
      SNAPSHOT_CACHE_SIZE: 10_000,
      CARRIER_PORT: 8082,
      SNAPSHOT_BUCKET: 'ratesmith_snapshots',
      COMPILED_CACHE_SIZE: 1000,
    });
  });

  it('sizes the hot tier (generated code) from COMPILED_CACHE_SIZE; 0 turns it off', () => {
    expect(loadConfig({ ...base, COMPILED_CACHE_SIZE: '50' }).COMPILED_CACHE_SIZE).toBe(50);
    expect(loadConfig({ ...base, COMPILED_CACHE_SIZE: '0' }).COMPILED_CACHE_SIZE).toBe(0);
    expect(() => loadConfig({ ...base, COMPILED_CACHE_SIZE: '-1' })).toThrow(/COMPILED_CACHE_SIZE/);
  });

  it('makes a shop busy for generated code at 10 quotes a minute, at most 20 functions a second; both whole numbers >= 1', () => {
    expect(loadConfig(base)).toMatchObject({ COMPILE_AFTER_QUOTES: 10, COMPILES_PER_SECOND: 20 });
    expect(
      loadConfig({ ...base, COMPILE_AFTER_QUOTES: '3', COMPILES_PER_SECOND: '5' }),
    ).toMatchObject({ COMPILE_AFTER_QUOTES: 3, COMPILES_PER_SECOND: 5 });
    expect(() => loadConfig({ ...base, COMPILE_AFTER_QUOTES: '0' })).toThrow(
      /COMPILE_AFTER_QUOTES/,
    );
    expect(() => loadConfig({ ...base, COMPILES_PER_SECOND: '1.5' })).toThrow(
      /COMPILES_PER_SECOND/,
    );
  });

  it('takes the callback port from CARRIER_PORT, else from PORT (the chart sets PORT)', () => {
    expect(loadConfig({ ...base, PORT: '8080' }).CARRIER_PORT).toBe(8080);
    expect(loadConfig({ ...base, PORT: '8080', CARRIER_PORT: '4101' }).CARRIER_PORT).toBe(4101);
  });

  it('refuses monitor mode in production unless the override is set', () => {
    const prod = { ...base, NODE_ENV: 'production', CARRIER_HMAC_MODE: 'monitor' };
    expect(() => loadConfig(prod)).toThrow(
      /CARRIER_HMAC_MODE cannot be monitor in production unless CARRIER_HMAC_MONITOR_IN_PRODUCTION=true/,
    );
    expect(
      loadConfig({ ...prod, CARRIER_HMAC_MONITOR_IN_PRODUCTION: 'true' }).CARRIER_HMAC_MODE,
    ).toBe('monitor');
    expect(
      loadConfig({ ...base, NODE_ENV: 'production', CARRIER_HMAC_MODE: 'enforce' })
        .CARRIER_HMAC_MODE,
    ).toBe('enforce');
  });

  it('names every bad or missing variable at once', () => {
    expect(() => loadConfig({ CARRIER_HMAC_MODE: 'off', SNAPSHOT_CACHE_SIZE: '0' })).toThrow(
      /NATS_URL is required.*SHOPIFY_API_SECRET is required.*CARRIER_HMAC_MODE.*SNAPSHOT_CACHE_SIZE/,
    );
  });
});
