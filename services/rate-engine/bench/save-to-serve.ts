import { createHmac, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { freePort, repoRoot, startFerretDb, startNatsServer } from '@ratesmith/devstack';
import { connectMongo, createLogger, DEMO_API_KEY, DEMO_API_SECRET } from '@ratesmith/kit';
import { benchRequest } from './fixture';
import { serviceMain, startNode, waitForPort, waitReady, type BenchProcess } from './processes';

/**
 * Benchmark 3: the time from the gateway answering a Save All to the rate
 * engine's carrier callback quoting the saved rules, on the real stack (NATS,
 * FerretDB, the Shopify double, auth, rules, rate engine and gateway as built
 * processes, configured as tools/devstack configures them for `npm start`).
 */

const SHOP = 'bench-save.myshopify.com';
// Demo mode (session tokens from /demo/session-token) works only with the demo app's credentials.
const KEY = DEMO_API_KEY;
const SECRET = DEMO_API_SECRET;

export interface SaveToServe {
  samples: number;
  p50: number;
  p99: number;
  max: number;
}

const filter = (amount: number) => ({
  name: 'Flat',
  raw_query: {
    condition: 'AND',
    rules: [{ type: 'condition', field: 'cart_price', operator: 'greater_or_equal', value: '0' }],
  },
  action_type: 1,
  action_data: String(amount),
  global_rule_action: 0,
  is_shipping_overridden: 'No',
  post_processing_action_type: 1,
});

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export async function measureSaveToServe(samples = 100): Promise<SaveToServe> {
  const [nats, mongo] = await Promise.all([startNatsServer(), startFerretDb()]);
  const procs: BenchProcess[] = [];
  try {
    const port = await freePort();
    const carrierPort = await freePort();
    // The local Shopify double stands in for Shopify, as under `npm start` (tools/devstack).
    const doublePort = await freePort();
    const double = startNode(join(repoRoot, 'tools', 'shopify-double', 'dist', 'main.js'), [], {
      SHOPIFY_DOUBLE_PORT: String(doublePort),
      SHOPIFY_API_KEY: KEY,
      SHOPIFY_API_SECRET: SECRET,
    });
    procs.push(double);
    await waitForPort(doublePort, 30_000, double.child);
    const common = {
      SHOPIFY_API_ORIGIN: `http://127.0.0.1:${doublePort}`,
      NATS_URL: nats.url,
      MONGODB_URI: mongo.url,
      DEMO_MODE: 'true',
      DEMO_SHOPS: SHOP,
      SHOPIFY_API_KEY: KEY,
      SHOPIFY_API_SECRET: SECRET,
    };
    const appUrl = `http://localhost:${port}`;
    for (const [name, env] of [
      [
        'auth',
        {
          // Required by auth's configuration (services/auth/src/config.ts).
          APP_URL: appUrl,
          RATE_ENGINE_URL: `http://127.0.0.1:${carrierPort}`,
          TOKEN_ENCRYPTION_KEYS: `bench:${randomBytes(32).toString('base64')}`,
        },
      ],
      ['rules', {}],
      ['rate-engine', { CARRIER_PORT: String(carrierPort), CARRIER_HMAC_MODE: 'enforce' }],
      ['gateway', { PORT: String(port), API_RATE_LIMIT: '0', APP_URL: appUrl }],
    ] as const) {
      const healthPort = await freePort();
      const proc = startNode(serviceMain(name), [], {
        ...common,
        ...env,
        HEALTH_PORT: String(healthPort),
      });
      procs.push(proc);
      await waitReady(healthPort, proc);
    }

    const base = `http://127.0.0.1:${port}`;
    let token = '';
    let tokenAt = 0;
    const api = async (path: string, init: { method?: string; json?: unknown } = {}) => {
      if (Date.now() - tokenAt > 30_000) {
        const res = await fetch(`${base}/demo/session-token?shop=${SHOP}`);
        token = ((await res.json()) as { token: string }).token;
        tokenAt = Date.now();
      }
      const res = await fetch(`${base}${path}`, {
        method: init.method ?? 'GET',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: init.json === undefined ? undefined : JSON.stringify(init.json),
      });
      const body = (await res.json()) as { rule?: { id: string } };
      if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
      return body;
    };

    const created = await api('/api/global-rules', { method: 'POST', json: { name: 'Bench' } });
    const id = created.rule!.id;
    await api(`/api/global-rules/${id}/toggle`);

    // The auth service gives each shop its rate key when it is installed (in demo mode
    // possibly on the first session token); the bench uses that one, else writes one
    // where the rules service keeps it, and the next Save All publishes it.
    const conn = await connectMongo({
      uri: mongo.url,
      dbName: 'ratesmith_rules',
      logger: createLogger('bench', 'silent'),
      timeoutMs: 5000,
    });
    const settings = conn.collection('shop_settings');
    const existing = (await settings.findOne({ shop: SHOP })) as {
      rate_key?: string | null;
    } | null;
    let rateKey = existing?.rate_key ?? '';
    if (!rateKey) {
      rateKey = randomBytes(16).toString('hex');
      await settings.updateOne({ shop: SHOP }, { $set: { rate_key: rateKey } }, { upsert: true });
    }
    await conn.close();

    const body = JSON.stringify(benchRequest());
    const signature = createHmac('sha256', SECRET).update(body).digest('base64');
    const carrier = `http://127.0.0.1:${carrierPort}/carrier/rates/${rateKey}`;
    let last = '';
    const priceNow = async () => {
      const res = await fetch(carrier, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-shopify-hmac-sha256': signature },
        body,
      });
      if (res.status !== 200) {
        last = `${res.status} ${await res.text()}`;
        return undefined;
      }
      return ((await res.json()) as { rates: { total_price: string }[] }).rates[0]?.total_price;
    };
    const waitForPrice = async (cents: number, timeoutMs: number) => {
      const deadline = performance.now() + timeoutMs;
      while ((await priceNow()) !== String(cents)) {
        if (performance.now() > deadline)
          throw new Error(`the engine never served ${cents} (last answer: ${last})`);
      }
    };

    await api(`/api/global-rules/update/${id}`, { method: 'POST', json: { rules: [filter(1)] } });
    await waitForPrice(100, 15_000);

    const times: number[] = [];
    for (let i = 0; i < samples; i++) {
      const amount = 2 + i;
      await api(`/api/global-rules/update/${id}`, {
        method: 'POST',
        json: { rules: [filter(amount)] },
      });
      const saved = performance.now();
      await waitForPrice(amount * 100, 5000);
      times.push(performance.now() - saved);
    }
    times.sort((a, b) => a - b);
    return {
      samples: times.length,
      p50: percentile(times, 50),
      p99: percentile(times, 99),
      max: times[times.length - 1]!,
    };
  } finally {
    for (const p of procs.reverse()) await p.stop();
    await Promise.all([nats.stop(), mongo.stop()]);
  }
}
