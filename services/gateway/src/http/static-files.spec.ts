import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { authV1, catalogV1, rateEngineV1, rulesV1 } from '@ratesmith/contracts';
import { createLogger, type ClientOf } from '@ratesmith/kit';
import { createGateway } from '../app';
import { loadConfig } from '../config';
import { negotiateEncoding, type Coding } from './static-files';

const ALL: Coding[] = ['br', 'gzip', 'identity'];

describe('negotiateEncoding', () => {
  it.each([
    // What browsers send: brotli wins.
    ['gzip, deflate, br, zstd', ALL, 'br'],
    ['br', ALL, 'br'],
    ['gzip, deflate', ALL, 'gzip'],
    ['x-gzip', ALL, 'gzip'],
    // No header, or nothing the gateway has: the file as it is.
    [undefined, ALL, 'identity'],
    ['', ALL, 'identity'],
    ['deflate, zstd', ALL, 'identity'],
    // Refused by q=0, or ranked by q.
    ['br;q=0, gzip', ALL, 'gzip'],
    ['br;q=0.5, gzip;q=0.8', ALL, 'gzip'],
    ['BR;Q=1.0, GZIP;q=0.9', ALL, 'br'],
    ['*', ALL, 'br'],
    ['*;q=0, identity', ALL, 'identity'],
    ['gzip;q=0, *', ALL, 'br'],
    // Only what exists is offered (a file the build did not compress).
    ['br, gzip', ['gzip', 'identity'], 'gzip'],
    ['br, gzip', ['identity'], 'identity'],
    // identity refused and nothing else acceptable: still the right bytes.
    ['identity;q=0', ['identity'], 'identity'],
    ['gzip;q=nonsense, br;q=0', ALL, 'identity'],
  ] as [string | undefined, Coding[], Coding][])('%p of %p → %p', (header, offered, expected) => {
    expect(negotiateEncoding(header, offered)).toBe(expected);
  });
});

describe('FRONTEND_COMPRESSION', () => {
  const dist = mkdtempSync(join(tmpdir(), 'ratesmith-dist-'));
  const script = Buffer.from('console.log("the admin");'.repeat(200));
  const servers: Server[] = [];
  const start = async (env: Record<string, string>) => {
    const app = createGateway({
      config: loadConfig({
        NATS_URL: 'nats://127.0.0.1:4222',
        SHOPIFY_API_SECRET: 's',
        SHOPIFY_API_KEY: 'k',
        FRONTEND_DIST: dist,
        ...env,
      }),
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

  beforeAll(() => {
    writeFileSync(join(dist, 'index.html'), '<!doctype html><html><head></head></html>');
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'assets', 'index-abc.js'), script);
    writeFileSync(join(dist, 'assets', 'index-abc.js.br'), brotliCompressSync(script));
    writeFileSync(join(dist, 'assets', 'index-abc.js.gz'), gzipSync(script));
    // A file the build left uncompressed (too small to gain): served as it is.
    writeFileSync(join(dist, 'assets', 'tiny-abc.js'), '1');
  });
  afterAll(() => {
    for (const server of servers) server.close();
    rmSync(dist, { recursive: true, force: true });
  });

  /** fetch decodes bodies; the header says what was sent. */
  const encoding = async (url: string, path: string) => {
    const res = await fetch(`${url}${path}`, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(Buffer.from(await res.arrayBuffer()).length).toBeGreaterThan(0);
    return res.headers.get('content-encoding');
  };

  it('serves brotli by default, identity when false (the Lighthouse baseline)', async () => {
    const on = await start({});
    const off = await start({ FRONTEND_COMPRESSION: 'false' });
    expect(await encoding(on, '/assets/index-abc.js')).toBe('br');
    expect(await encoding(on, '/?shop=shop-a.myshopify.com&host=x')).toBe('br');
    expect(await encoding(on, '/assets/tiny-abc.js')).toBeNull();
    expect(await encoding(off, '/assets/index-abc.js')).toBeNull();
    expect(await encoding(off, '/?shop=shop-a.myshopify.com&host=x')).toBeNull();
    const plain = await fetch(`${off}/assets/index-abc.js`, {
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(plain.headers.get('content-length')).toBe(String(script.length));
    expect(plain.headers.get('vary')).toBe('Accept-Encoding');
    // The compressed file itself is no asset of its own.
    expect((await fetch(`${on}/assets/index-abc.js.br`)).status).toBe(404);
  });
});
