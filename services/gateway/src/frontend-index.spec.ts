import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, DEMO_API_KEY, DEMO_API_SECRET, type ClientOf } from '@ratesmith/kit';
import type { authV1, catalogV1, rateEngineV1, rulesV1 } from '@ratesmith/contracts';
import { createGateway, frontendIndexHtml } from './app';
import { loadConfig } from './config';

const base = { NATS_URL: 'nats://127.0.0.1:4222', SHOPIFY_API_SECRET: 's' };
const html =
  '<!doctype html><html><head><meta charset="utf-8" /><script type="module" src="/assets/index.js"></script></head></html>';
const APP_BRIDGE = '<script src="https://cdn.shopify.com/shopifycloud/app-bridge.js"></script>';

describe("the admin's index.html", () => {
  it('loads App Bridge first, with the app key, outside demo mode', () => {
    const page = frontendIndexHtml(html, loadConfig({ ...base, SHOPIFY_API_KEY: 'key"<1>' }));
    expect(page).toContain(
      `<head><meta name="shopify-api-key" content="key&#34;&#60;1&#62;" />${APP_BRIDGE}<meta charset`,
    );
  });

  it('loads nothing from the internet in demo mode', () => {
    const page = frontendIndexHtml(
      html,
      loadConfig({
        ...base,
        SHOPIFY_API_KEY: DEMO_API_KEY,
        SHOPIFY_API_SECRET: DEMO_API_SECRET,
        DEMO_MODE: 'true',
      }),
    );
    expect(page).toBe(html);
    expect(page).not.toContain('cdn.shopify.com');
  });

  describe('served by the gateway', () => {
    const dist = mkdtempSync(join(tmpdir(), 'ratesmith-dist-'));
    let baseUrl: string;
    let close: () => void;

    beforeAll(async () => {
      writeFileSync(join(dist, 'index.html'), html);
      mkdirSync(join(dist, 'assets'));
      writeFileSync(join(dist, 'assets', 'index.js'), 'console.log(1)');
      const app = createGateway({
        config: loadConfig({ ...base, SHOPIFY_API_KEY: 'k', FRONTEND_DIST: dist }),
        logger: createLogger('test', 'silent'),
        // Serving the frontend calls no service.
        rules: {} as ClientOf<typeof rulesV1.RulesService>,
        auth: {} as ClientOf<typeof authV1.AuthService>,
        catalog: {} as ClientOf<typeof catalogV1.CatalogService>,
        rateEngine: {} as ClientOf<typeof rateEngineV1.RateEngineService>,
      });
      const server = await new Promise<Server>((resolve) => {
        const s = app.listen(0, '127.0.0.1', () => resolve(s));
      });
      baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      close = () => server.close();
    });

    afterAll(() => {
      close?.();
      rmSync(dist, { recursive: true, force: true });
    });

    const get = async (path: string) => {
      const res = await fetch(`${baseUrl}${path}`);
      return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
    };

    it('gives every app route the shell with App Bridge', async () => {
      for (const path of ['/', '/global-rules', '/edit-global-rule/abc', '/index.html']) {
        const page = await get(path);
        expect(page.status).toBe(200);
        expect(page.body).toContain(APP_BRIDGE);
      }
    });

    it('gives the install page (outside the admin) the shell without App Bridge', async () => {
      const page = await get('/install');
      expect(page.body).toBe(html);
    });

    it('serves the built assets as files', async () => {
      const asset = await get('/assets/index.js');
      expect(asset).toMatchObject({ status: 200, body: 'console.log(1)' });
      expect(asset.type).toContain('javascript');
    });
  });
});
