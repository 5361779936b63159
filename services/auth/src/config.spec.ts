import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConfigError } from '@ratesmith/kit';
import { carrierUrlProblem, loadConfig } from './config';

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

  describe('RATE_ENGINE_URL in production: https on a public host', () => {
    const prod = (url: string) => problems({ NODE_ENV: 'production', RATE_ENGINE_URL: url });

    it.each([
      'https://rates.example.com',
      'https://rates.example.com:8443/base',
      'https://8.8.8.8',
      'https://172.32.0.1',
      'https://[2606:4700::1111]',
    ])('accepts %s', (url) => {
      expect(prod(url)).toEqual([]);
    });

    it.each([
      ['http://rates.example.com', 'must be an https:// URL in production'],
      ['https://localhost:8082', 'not localhost'],
      ['https://LOCALHOST./x', 'not localhost'],
      ['https://engine.localhost', 'not engine.localhost'],
      ['https://127.0.0.1', '127.0.0.1 is a loopback address'],
      ['https://0x7f.1', '127.0.0.1 is a loopback address'],
      ['https://2130706433', '127.0.0.1 is a loopback address'],
      ['https://0.0.0.0', '0.0.0.0 is an unspecified address'],
      ['https://10.1.2.3', '10.1.2.3 is a private address'],
      ['https://172.16.0.1', '172.16.0.1 is a private address'],
      ['https://172.31.255.255', '172.31.255.255 is a private address'],
      ['https://192.168.1.10', '192.168.1.10 is a private address'],
      ['https://169.254.169.254', '169.254.169.254 is a link-local address'],
      ['https://[::1]', '::1 is a loopback address'],
      ['https://[::]', ':: is an unspecified address'],
      ['https://[fe80::1]', 'fe80::1 is a link-local address'],
      ['https://[fd12:3456::1]', 'fd12:3456::1 is a unique-local address'],
      ['https://[fc00::1]', 'fc00::1 is a unique-local address'],
      ['https://[::ffff:10.0.0.1]', '::ffff:a00:1 is a private address'],
    ])('refuses %s with one clear line', (url, says) => {
      const found = prod(url);
      expect(found).toHaveLength(1);
      expect(found[0]).toMatch(/^RATE_ENGINE_URL must be /);
      expect(found[0]).toContain(says);
    });

    it("accepts the chart's rendered default (k8s/ratesmith.yaml, NODE_ENV=production)", () => {
      const rendered = readFileSync(join(__dirname, '../../../k8s/ratesmith.yaml'), 'utf8');
      const urls = [...rendered.matchAll(/name: RATE_ENGINE_URL\s+value: "([^"]+)"/g)].map(
        (m) => m[1]!,
      );
      expect(urls.length).toBeGreaterThan(0);
      for (const url of urls) expect(carrierUrlProblem(url)).toBeUndefined();
    });

    it('leaves development and tests free to use the local engine', () => {
      expect(problems({ RATE_ENGINE_URL: 'http://localhost:4082' })).toEqual([]);
      expect(problems({ NODE_ENV: 'test', RATE_ENGINE_URL: 'http://127.0.0.1:4082' })).toEqual([]);
    });
  });
});
