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

  it('names TRAINING_VIDEO_URL after App Bridge, escaped, and nothing when it is unset', () => {
    const url = 'https://videos.example.com/training.mp4?v="2"';
    const page = frontendIndexHtml(
      html,
      loadConfig({ ...base, SHOPIFY_API_KEY: 'k', TRAINING_VIDEO_URL: url }),
    );
    expect(page).toContain(
      `${APP_BRIDGE}<meta name="ratesmith-training-video" content="https://videos.example.com/training.mp4?v=&#34;2&#34;" />`,
    );
    expect(frontendIndexHtml(html, loadConfig({ ...base, SHOPIFY_API_KEY: 'k' }))).not.toContain(
      'ratesmith-training-video',
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
    const video = Buffer.from(Array.from({ length: 4096 }, (_, i) => i % 251));
    const servers: Server[] = [];
    let baseUrl: string;
    let withVideoUrl: string;

    const start = async (env: Record<string, string> = {}) => {
      const app = createGateway({
        config: loadConfig({ ...base, SHOPIFY_API_KEY: 'k', FRONTEND_DIST: dist, ...env }),
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
      servers.push(server);
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    };

    beforeAll(async () => {
      writeFileSync(join(dist, 'index.html'), html);
      mkdirSync(join(dist, 'assets'));
      writeFileSync(join(dist, 'assets', 'index.js'), 'console.log(1)');
      // What vite copies from frontend/public/training.
      mkdirSync(join(dist, 'training'));
      writeFileSync(join(dist, 'training', 'ratesmith-walkthrough.webm'), video);
      writeFileSync(join(dist, 'training', 'ratesmith-walkthrough.vtt'), 'WEBVTT\n');
      baseUrl = await start();
      withVideoUrl = await start({ TRAINING_VIDEO_URL: 'https://videos.example.com/a/b.mp4' });
    });

    afterAll(() => {
      for (const server of servers) server.close();
      rmSync(dist, { recursive: true, force: true });
    });

    const get = async (path: string, url = baseUrl) => {
      const res = await fetch(`${url}${path}`);
      return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
    };
    const csp = async (path: string, url = baseUrl) =>
      (await fetch(`${url}${path}`)).headers.get('content-security-policy') ?? '';
    const mediaSrc = (policy: string) =>
      policy
        .split(';')
        .map((d) => d.trim())
        .find((d) => d.startsWith('media-src'));

    /** How the admin opens the App URL (the signed parameters do not matter to the shell). */
    const OPENED = '/?shop=shop-a.myshopify.com&host=x';

    it('gives every app route the shell with App Bridge', async () => {
      for (const path of [OPENED, '/global-rules', '/edit-global-rule/abc', '/index.html']) {
        const page = await get(path);
        expect(page.status).toBe(200);
        expect(page.body).toContain(APP_BRIDGE);
      }
    });

    it('answers the App URL opened outside the admin without a shop with how to open the app, no script', async () => {
      const page = await get('/');
      expect(page.status).toBe(200);
      expect(page.type).toMatch(/^text\/html/);
      expect(page.body).toContain('<strong>Apps</strong>, then <strong>Ratesmith</strong>');
      expect(page.body).toContain('<a href="/install">');
      expect(page.body).not.toMatch(/<script/i);
      const policy = await csp('/');
      expect(policy).toContain("script-src 'self' https://cdn.shopify.com");
      expect(policy).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(policy).toContain("frame-ancestors 'none'");
      // Framed (the admin's load, even before a shop is known): never this page.
      const framed = await fetch(`${baseUrl}/`, { headers: { 'sec-fetch-dest': 'iframe' } });
      expect(await framed.text()).toContain(APP_BRIDGE);
      expect((await get('/?embedded=1')).body).toContain(APP_BRIDGE);
    });

    it('gives the install page (outside the admin) the shell without App Bridge', async () => {
      const page = await get('/install');
      expect(page.body).toBe(html);
    });

    it('serves the recorded training video as WebM, in ranges, with its WebVTT captions', async () => {
      const whole = await fetch(`${baseUrl}/training/ratesmith-walkthrough.webm`);
      expect(whole.status).toBe(200);
      expect(whole.headers.get('content-type')).toBe('video/webm');
      expect(whole.headers.get('accept-ranges')).toBe('bytes');
      expect(Buffer.from(await whole.arrayBuffer())).toEqual(video);
      // What a <video> asks for when it seeks.
      const part = await fetch(`${baseUrl}/training/ratesmith-walkthrough.webm`, {
        headers: { range: 'bytes=1000-1999' },
      });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes 1000-1999/${video.length}`);
      expect(Buffer.from(await part.arrayBuffer())).toEqual(video.subarray(1000, 2000));
      const captions = await get('/training/ratesmith-walkthrough.vtt');
      expect(captions).toMatchObject({ status: 200, body: 'WEBVTT\n' });
      expect(captions.type).toMatch(/^text\/vtt/);
    });

    it("allows media from the app only, and TRAINING_VIDEO_URL's origin when it is set", async () => {
      for (const path of ['/', '/install', '/dashboard']) {
        expect(mediaSrc(await csp(path))).toBe("media-src 'self'");
        expect(mediaSrc(await csp(path, withVideoUrl))).toBe(
          "media-src 'self' https://videos.example.com",
        );
      }
      expect(await csp('/', withVideoUrl)).not.toContain('youtube');
    });

    it('names TRAINING_VIDEO_URL to the admin and to the install page', async () => {
      const tag =
        '<meta name="ratesmith-training-video" content="https://videos.example.com/a/b.mp4" />';
      for (const path of [OPENED, '/dashboard', '/install'])
        expect((await get(path, withVideoUrl)).body).toContain(tag);
      expect((await get('/install', withVideoUrl)).body).not.toContain(APP_BRIDGE);
      expect((await get('/dashboard')).body).not.toContain('ratesmith-training-video');
    });

    it('serves the built assets as files', async () => {
      const asset = await get('/assets/index.js');
      expect(asset).toMatchObject({ status: 200, body: 'console.log(1)' });
      expect(asset.type).toContain('javascript');
    });
  });
});
