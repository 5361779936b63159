import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, repoRoot } from '../src/servers';

/**
 * `npm start` as a newcomer runs it: the built start script brings up NATS,
 * FerretDB and every service, and a demo session works with curl-like calls.
 */
const startScript = join(repoRoot, 'tools', 'devstack', 'dist', 'start.js');
const dataDir = mkdtempSync(join(tmpdir(), 'ratesmith-start-'));
let port: number;

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function start(): Started {
  let output = '';
  const child = spawn(process.execPath, [startScript], {
    // Empty NATS_URL / MONGODB_URI: the script starts its own servers even if CI names some.
    env: {
      ...process.env,
      PORT: String(port),
      RATESMITH_DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      NATS_URL: '',
      MONGODB_URI: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return { child, output: () => output, exited };
}

async function until(
  predicate: () => boolean,
  timeoutMs: number,
  what: string,
  started: Started,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}; output:\n${started.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function api(path: string, token: string, init: RequestInit = {}) {
  const res = await fetch(`http://localhost:${port}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  });
  return { status: res.status, body: (await res.json()) as any };
}

async function demoToken(): Promise<string> {
  const res = await fetch(`http://localhost:${port}/demo/session-token`);
  return ((await res.json()) as { token: string }).token;
}

beforeAll(async () => {
  if (!existsSync(startScript))
    throw new Error('tools/devstack is not built: run `npm run build` (npm test does)');
  port = await freePort();
});

describe('npm start', () => {
  let first: Started;

  afterAll(async () => {
    if (first && first.child.exitCode === null) first.child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('brings up the whole app in demo mode and prints the URL', async () => {
    first = start();
    await until(
      () => first.output().includes('Ratesmith is running in demo mode'),
      90_000,
      'the start banner',
      first,
    );
    expect(first.output()).toContain(`http://localhost:${port}`);
  }, 120_000);

  it('serves the rules API to a demo session: list, add, edit, toggle', async () => {
    const token = await demoToken();
    expect((await api('/api/global-rules', token)).body.globalRules).toEqual([]);
    const created = await api('/api/global-rules', token, {
      method: 'POST',
      body: JSON.stringify({ name: 'Demo rules' }),
    });
    const id = created.body.rule.id;
    const filter = {
      name: 'Flat fee',
      raw_query: {
        condition: 'AND',
        rules: [{ type: 'condition', field: 'cart_price', operator: 'greater_than', value: 0 }],
      },
      action_type: 1,
      action_data: 5,
    };
    const saved = await api(`/api/global-rules/update/${id}`, token, {
      method: 'POST',
      body: JSON.stringify({ rules: [filter] }),
    });
    expect(saved.body.status).toBe(true);
    expect((await api(`/api/global-rules/${id}/toggle`, token)).body.message).toBe(
      'Ruleset enabled.',
    );
    const list = await api('/api/global-rules', token);
    expect(list.body.shop.global_rule_id).toBe(id);
    expect(list.body.globalRules[0]).toMatchObject({
      name: 'Demo rules',
      filters_count: 1,
      active: true,
    });
  });

  it('installs the demo shop through the local Shopify double', async () => {
    const shop = 'ratesmith-demo.myshopify.com';
    const res = await fetch(`http://localhost:${port}/api/install`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ shop, email: 'demo@example.com' }),
    });
    const { url } = (await res.json()) as { url: string };
    const authorize = await fetch(url, { redirect: 'manual' });
    expect(authorize.status).toBe(302);
    const callback = authorize.headers.get('location')!;
    expect(callback.startsWith(`http://localhost:${port}/auth/callback?`)).toBe(true);
    const intoApp = await fetch(callback, { redirect: 'manual' });
    expect(intoApp.status).toBe(302);
    expect(intoApp.headers.get('location')).toMatch(
      /^\/\?shop=ratesmith-demo\.myshopify\.com&host=/,
    );
  });

  it('runs every service under its own NATS user (TLS): the catalog, product rules and the preview answer', async () => {
    expect(first.output()).toContain('(a user per service, TLS)');
    const token = await demoToken();
    // gateway → catalog → auth (RunAdminQuery, with the shop's token) → Shopify double
    const products = await api('/api/product-rules/shopify-products', token);
    expect(products.status).toBe(200);
    const id = products.body.products.edges[0].node.id as string;
    // gateway → catalog → rules (AddProductRules) → snapshot (rules writes, the engine reads)
    const added = await api('/api/product-rules/add-shopify-product', token, {
      method: 'POST',
      body: JSON.stringify({ products: [id] }),
    });
    expect(added.body).toEqual({ status: true, message: '1 product added.' });
    expect((await api('/api/product-rules', token)).body.products.data).toHaveLength(1);
    // gateway → rate engine, quoting the snapshot it read from the bucket: the saved flat fee
    const preview = await api('/api/rate-preview', token, {
      method: 'POST',
      body: JSON.stringify({
        rate: {
          destination: { country: 'US' },
          currency: 'USD',
          items: [{ price: 1000, quantity: 1 }],
        },
      }),
    });
    expect(preview.status).toBe(200);
    expect(preview.body.trace.fee).toBe(500);
    expect(first.output()).not.toMatch(/Permissions Violation/i);
  });

  it('says so when a second start is attempted while one runs', async () => {
    const second = start();
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain('Ratesmith is already running');
  }, 30_000);

  it('stops everything cleanly on Ctrl-C and keeps the data for the next start', async () => {
    first.child.kill('SIGINT');
    expect(await first.exited).toBe(0);
    expect(existsSync(join(dataDir, 'ratesmith.lock'))).toBe(false);

    const again = start();
    try {
      await until(
        () => again.output().includes('Ratesmith is running'),
        90_000,
        'the second start',
        again,
      );
      const list = await api('/api/global-rules', await demoToken());
      expect(list.body.globalRules.map((r: { name: string }) => r.name)).toEqual(['Demo rules']);
    } finally {
      again.child.kill('SIGINT');
      expect(await again.exited).toBe(0);
    }
  }, 150_000);
});
