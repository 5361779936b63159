import { frontendIndexHtml } from './app';
import { loadConfig } from './config';

const base = { NATS_URL: 'nats://127.0.0.1:4222', SHOPIFY_API_SECRET: 's' };
const html =
  '<!doctype html><html><head><meta charset="utf-8" /><script type="module" src="/assets/index.js"></script></head></html>';

describe("the admin's index.html", () => {
  it('loads App Bridge first, with the app key, outside demo mode', () => {
    const page = frontendIndexHtml(html, loadConfig({ ...base, SHOPIFY_API_KEY: 'key"<1>' }));
    expect(page).toContain(
      '<head><meta name="shopify-api-key" content="key&#34;&#60;1&#62;" /><script src="https://cdn.shopify.com/shopifycloud/app-bridge.js"></script><meta charset',
    );
  });

  it('loads nothing from the internet in demo mode', () => {
    const page = frontendIndexHtml(
      html,
      loadConfig({ ...base, SHOPIFY_API_KEY: 'k', DEMO_MODE: 'true' }),
    );
    expect(page).toBe(html);
    expect(page).not.toContain('cdn.shopify.com');
  });
});
