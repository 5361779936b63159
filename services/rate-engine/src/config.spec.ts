import { loadConfig } from './config';

const base = { NATS_URL: 'nats://127.0.0.1:4222', SHOPIFY_API_SECRET: 'secret' };

describe('rate engine configuration', () => {
  it('has safe defaults: HMAC enforced, 10,000 cached snapshots, port 8082', () => {
    expect(loadConfig(base)).toMatchObject({
      CARRIER_HMAC_MODE: 'enforce',
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

  it('takes the callback port from CARRIER_PORT, else from PORT (the chart sets PORT)', () => {
    expect(loadConfig({ ...base, PORT: '8080' }).CARRIER_PORT).toBe(8080);
    expect(loadConfig({ ...base, PORT: '8080', CARRIER_PORT: '4101' }).CARRIER_PORT).toBe(4101);
  });

  it('names every bad or missing variable at once', () => {
    expect(() => loadConfig({ CARRIER_HMAC_MODE: 'off', SNAPSHOT_CACHE_SIZE: '0' })).toThrow(
      /NATS_URL is required.*SHOPIFY_API_SECRET is required.*CARRIER_HMAC_MODE.*SNAPSHOT_CACHE_SIZE/,
    );
  });
});
