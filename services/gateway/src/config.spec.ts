import { DEMO_API_KEY, DEMO_API_SECRET } from '@ratesmith/kit';
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

  const demo = { ...base, DEMO_MODE: 'true', SHOPIFY_API_KEY: DEMO_API_KEY };

  it('runs demo mode only with the demo credentials, naming the variable', () => {
    expect(() => loadConfig({ ...demo, SHOPIFY_API_SECRET: 'a-real-secret' })).toThrow(
      /SHOPIFY_API_SECRET must be the demo secret when DEMO_MODE is on/,
    );
    expect(() =>
      loadConfig({ ...demo, SHOPIFY_API_KEY: 'real-key', SHOPIFY_API_SECRET: DEMO_API_SECRET }),
    ).toThrow(/SHOPIFY_API_KEY must be the demo key/);
    expect(loadConfig({ ...demo, SHOPIFY_API_SECRET: DEMO_API_SECRET }).DEMO_MODE).toBe(true);
  });

  it('runs demo mode only on loopback', () => {
    const ok = { ...demo, SHOPIFY_API_SECRET: DEMO_API_SECRET };
    for (const url of ['http://localhost:3000', 'http://127.0.0.1:3000', 'http://[::1]:3000'])
      expect(loadConfig({ ...ok, APP_URL: url }).APP_URL).toBe(url);
    for (const url of [
      'https://app.example.com',
      'http://10.0.0.5:3000',
      'http://localhost.evil.com',
    ])
      expect(() => loadConfig({ ...ok, APP_URL: url })).toThrow(/APP_URL must be a loopback URL/);
  });

  it('needs an https APP_URL in production', () => {
    expect(() =>
      loadConfig({ ...base, NODE_ENV: 'production', APP_URL: 'http://app.example.com' }),
    ).toThrow(/APP_URL/);
    expect(
      loadConfig({ ...base, NODE_ENV: 'production', APP_URL: 'https://app.example.com' }).DEMO_MODE,
    ).toBe(false);
  });

  it("refuses the Shopify double (the test checkout's) in production", () => {
    const prod = { ...base, NODE_ENV: 'production', APP_URL: 'https://app.example.com' };
    expect(() => loadConfig({ ...prod, SHOPIFY_API_ORIGIN: 'http://127.0.0.1:9999' })).toThrow(
      'SHOPIFY_API_ORIGIN cannot be set when NODE_ENV is production',
    );
    expect(
      loadConfig({ ...base, SHOPIFY_API_ORIGIN: 'http://127.0.0.1:9999' }).SHOPIFY_API_ORIGIN,
    ).toBe('http://127.0.0.1:9999');
  });

  it('needs the Shopify credentials', () => {
    expect(() => loadConfig({ NATS_URL: 'n' })).toThrow(
      'SHOPIFY_API_KEY is required; SHOPIFY_API_SECRET is required',
    );
  });

  it('takes an https TRAINING_VIDEO_URL, and none when it is empty', () => {
    const url = 'https://videos.example.com/ratesmith/training.mp4';
    expect(loadConfig({ ...base, TRAINING_VIDEO_URL: url }).TRAINING_VIDEO_URL).toBe(url);
    expect(loadConfig({ ...base, TRAINING_VIDEO_URL: '' }).TRAINING_VIDEO_URL).toBeUndefined();
    expect(loadConfig(base).TRAINING_VIDEO_URL).toBeUndefined();
    for (const bad of ['http://videos.example.com/a.mp4', 'javascript:alert(1)', 'not a url'])
      expect(() => loadConfig({ ...base, TRAINING_VIDEO_URL: bad })).toThrow(
        /TRAINING_VIDEO_URL must be an https:\/\/ URL/,
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
