import { readFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startOwnApp, type OwnApp } from './harness';

/**
 * The admin's first load: the gateway of `npm start` serving the
 * real build (frontend/dist with the .br/.gz the build wrote) negotiates
 * Accept-Encoding, caches the content-hashed assets for a year and index.html
 * never, and answers an unknown asset or a path out of dist with a 404, not
 * the app shell. Requests go through node:http, which (unlike fetch) hands
 * back the bytes as sent.
 */

const dist = join(__dirname, '..', 'dist');
const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8')) as Record<
  string,
  { file: string; isEntry?: boolean; css?: string[]; imports?: string[] }
>;
const entry = Object.values(manifest).find((chunk) => chunk.isEntry)!;
/** The entry script, its stylesheet and its biggest import (the vendor chunk). */
const ASSETS = [entry.file, entry.css![0]!, manifest[entry.imports![0]!]!.file].map((f) => `/${f}`);

let app: OwnApp;
beforeAll(async () => {
  // An app of its own: what a cold gateway serves, with no other file's pages before.
  app = await startOwnApp();
}, 150_000);
afterAll(async () => {
  await app?.stop();
});

interface Raw {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** The path exactly as given (no `..` folding, no percent-decoding) and the body undecoded. */
function raw(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  const { hostname, port } = new URL(app.url);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const DECODE: Record<string, (b: Buffer) => Buffer> = {
  br: brotliDecompressSync,
  gzip: gunzipSync,
  identity: (b) => b,
};

describe('the built assets (/assets/*)', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip, deflate', 'gzip'],
    ['', 'identity'],
  ])('Accept-Encoding %p gets %s, which decodes to the file', async (accept, coding) => {
    for (const path of ASSETS) {
      const res = await raw(path, accept ? { 'accept-encoding': accept } : {});
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(coding === 'identity' ? undefined : coding);
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.headers['content-type']).toBe(
        path.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8',
      );
      expect(Number(res.headers['content-length'])).toBe(res.body.length);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const original = readFileSync(join(dist, path));
      expect(DECODE[coding]!(res.body).equals(original)).toBe(true);
      // Large files shrink to under a third; a small chunk's header and dictionary cost more.
      if (coding !== 'identity')
        expect(res.body.length).toBeLessThan(original.length / (original.length > 20_000 ? 3 : 2));
    }
  });

  it('answers HEAD with the headers of GET and no body, and a revalidation with 304', async () => {
    const accept = { 'accept-encoding': 'br' };
    const get = await raw(ASSETS[0]!, accept);
    const head = await raw(ASSETS[0]!, accept, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(head.headers.etag).toBe(get.headers.etag);
    const again = await raw(ASSETS[0]!, { ...accept, 'if-none-match': get.headers.etag! });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    // Another coding is another representation: its own tag.
    expect((await raw(ASSETS[0]!, { 'accept-encoding': 'gzip' })).headers.etag).not.toBe(
      get.headers.etag,
    );
  });

  it.each([
    '/assets/index-00000000.js',
    '/assets/',
    '/assets/.vite/manifest.json',
    '/.vite/manifest.json',
    '/favicon.ico',
    '/main.tsx',
  ])('%s (no such file) is a 404, not the app shell', async (path) => {
    const res = await raw(path, { 'accept-encoding': 'br' });
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).not.toMatch(/html/);
    expect(res.body.toString()).not.toContain('<div id="root">');
  });

  it.each([
    '/assets/../../package.json',
    '/assets/..%2f..%2fpackage.json',
    '/assets/%2e%2e/%2e%2e/package.json',
    '/assets/..%5c..%5cpackage.json',
    '/training/..%2f..%2f..%2fpackage.json',
    '/..%2f..%2fpackage.json',
    '/%2e%2e/%2e%2e/services/gateway/dist/config.js',
  ])('%s reaches nothing outside frontend/dist', async (path) => {
    const res = await raw(path);
    expect([400, 403, 404]).toContain(res.status);
    const body = res.body.toString();
    expect(body).not.toContain('"workspaces"');
    expect(body).not.toContain('FRONTEND_DIST');
  });
});

describe('the app shell (index.html)', () => {
  it.each(['/', '/global-rules', '/edit-global-rule/1', '/settings', '/install', '/index.html'])(
    '%s is never cached, compressed, and keeps its CSP',
    async (path) => {
      const plain = await raw(`${path}?shop=ratesmith-demo.myshopify.com`);
      const res = await raw(`${path}?shop=ratesmith-demo.myshopify.com`, {
        'accept-encoding': 'gzip, deflate, br',
      });
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(Number(res.headers['content-length'])).toBe(res.body.length);
      expect(brotliDecompressSync(res.body).equals(plain.body)).toBe(true);
      expect(plain.body.toString()).toContain('<div id="root">');
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(res.headers['content-security-policy']).toContain(
        'frame-ancestors https://ratesmith-demo.myshopify.com https://admin.shopify.com',
      );
    },
  );
});
