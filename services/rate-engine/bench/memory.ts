import { randomBytes } from 'node:crypto';
import { Kvm } from '@nats-io/kv';
import { SNAPSHOT_BUCKET } from '@ratesmith/contracts';
import { freePort, startNatsServer } from '@ratesmith/devstack';
import { connectNats, createLogger } from '@ratesmith/kit';
import { HOT_AFTER } from '@ratesmith/rate-engine/engine';
import { benchSnapshot, FULL, withTagIndex } from './fixture';
import { rssMb, serviceMain, startNode, waitReady } from './processes';

/**
 * Benchmark 4: resident memory of the rate engine with 10,000 shops'
 * snapshots compiled in its cache (each the benchmark fixture with its own
 * numbers), started on a bucket that holds them all (as a replica starts after
 * a deploy), after every shop was quoted twice and BUSY_SHOPS of them kept
 * busy long enough for the hot tier to give each its generated code (all
 * shapes distinct: one function each, the compile budget spreading them out).
 */

/** How long the engine is left without callbacks before the steady figure is read. */
const SETTLE_MS = 30_000;

/** Shops quoted as a busy shop is (generated code); the others are quoted twice only. */
export const BUSY_SHOPS = 200;

export interface MemoryUse {
  shops: number;
  filters: number;
  conditions: number;
  snapshotBytes: number;
  rssIdleMb: number;
  /** Steady: SETTLE_MS after the last callback. */
  rssMb: number;
  /** 1.5 s after the last callback, before V8 gave back what the load left. */
  rssAfterLoadMb: number;
  /** The highest resident memory of the loaded process (its load included). */
  rssPeakMb: number;
  loadSeconds: number;
  busyShops: number;
  /** Functions the hot tier generated (its metric). */
  generated: number;
  /** What the process itself reports at the end (kit's runtime metrics), in MB: where resident memory is. */
  heapUsedMb: number;
  heapTotalMb: number;
  externalMb: number;
}

async function scrape(healthPort: number, metric: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${healthPort}/metrics`)).text();
  return Number(new RegExp(`^${metric}(?:\\{[^}]*\\})? (\\S+)`, 'm').exec(text)?.[1] ?? NaN);
}

export async function measureMemory(
  shops = 10_000,
  size = FULL,
  nodeOptions?: string,
  /** Settings for the engine beyond the benchmark's own (e.g. another hot-tier policy). */
  engineEnv: Record<string, string> = {},
  /** Tagged products in each shop's product index, with a tag condition (0: none). */
  indexedProducts = 0,
): Promise<MemoryUse> {
  const nats = await startNatsServer();
  const nc = await connectNats({
    url: nats.url,
    name: 'bench',
    logger: createLogger('b', 'silent'),
  });
  let engine: ReturnType<typeof startNode> | undefined;
  try {
    const kv = await new Kvm(nc).create(SNAPSHOT_BUCKET, { history: 1 });
    const [healthPort, carrierPort] = [await freePort(), await freePort()];
    const start = () =>
      startNode(serviceMain('rate-engine'), [], {
        NATS_URL: nats.url,
        HEALTH_PORT: String(healthPort),
        CARRIER_PORT: String(carrierPort),
        SHOPIFY_API_SECRET: 'bench-secret',
        CARRIER_HMAC_MODE: 'monitor',
        SNAPSHOT_CACHE_SIZE: String(shops),
        // The hot tier at its default size unless a run asks for another.
        ...(process.env.COMPILED_CACHE_SIZE
          ? { COMPILED_CACHE_SIZE: process.env.COMPILED_CACHE_SIZE }
          : {}),
        // Per-filter analytics off, for the A/B in docs/performance.md.
        ...(process.env.FILTER_ANALYTICS ? { FILTER_ANALYTICS: process.env.FILTER_ANALYTICS } : {}),
        ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}),
        ...engineEnv,
      });
    // Idle: started on an empty bucket.
    engine = start();
    await waitReady(healthPort, engine);
    await new Promise((r) => setTimeout(r, 1000));
    const rssIdleMb = rssMb(engine.child.pid!);
    await engine.stop();

    const keys: string[] = [];
    let snapshotBytes = 0;
    for (let batch = 0; batch < shops; batch += 200) {
      const puts: Promise<unknown>[] = [];
      for (let i = batch; i < Math.min(shops, batch + 200); i++) {
        const key = randomBytes(16).toString('hex');
        keys.push(key);
        const snapshot = benchSnapshot(`shop-${i}.myshopify.com`, i, key, size);
        const json = JSON.stringify(
          indexedProducts ? withTagIndex(snapshot, i, indexedProducts) : snapshot,
        );
        snapshotBytes += json.length;
        puts.push(kv.put(`shop-${i}.myshopify.com`, json));
      }
      await Promise.all(puts);
    }
    // Loaded: a replica starting with every shop already in the bucket, as after a deploy.
    const started = performance.now();
    engine = start();
    await waitReady(healthPort, engine, 120_000);
    const deadline = Date.now() + 120_000;
    while ((await scrape(healthPort, 'ratesmith_snapshot_cached')) < shops) {
      if (Date.now() > deadline) throw new Error('the engine did not cache every shop in time');
      await new Promise((r) => setTimeout(r, 250));
    }
    const loadSeconds = (performance.now() - started) / 1000;

    // Quote every shop twice, so each one's quote path has run and each reached the hot
    // tier (generated code from a version's 2nd quote, src/engine/hot-tier.ts), which keeps the
    // last COMPILED_CACHE_SIZE (default 1,000) shapes: these 10,000 shops all differ.
    const body = JSON.stringify({
      rate: {
        currency: 'USD',
        destination: { country: 'US' },
        items: [{ price: 1000, quantity: 2, product_id: 1000 }],
      },
    });
    const quoteAll = async (list: string[]) => {
      for (let i = 0; i < list.length; i += 50) {
        await Promise.all(
          list.slice(i, i + 50).map(async (key) => {
            const res = await fetch(`http://127.0.0.1:${carrierPort}/carrier/rates/${key}`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body,
            });
            if (res.status !== 200) throw new Error(`quote failed: ${res.status}`);
            await res.arrayBuffer();
          }),
        );
      }
    };
    await quoteAll(keys.concat(keys));
    // The busy shops: quoted in rounds until each has its code (the hot tier's
    // functions metric), or 40 s at most; the compile budget spreads them out.
    const busy = keys.slice(0, BUSY_SHOPS);
    const busyDeadline = Date.now() + 40_000;
    for (let round = 0; Date.now() < busyDeadline; round++) {
      await quoteAll(busy);
      if (
        round >= HOT_AFTER &&
        (await scrape(healthPort, 'ratesmith_hot_tier_functions')) >= busy.length
      )
        break;
    }
    const generated = await scrape(healthPort, 'ratesmith_hot_tier_generated_total');
    // Resident memory right after the load, and once V8 has had its chance to give back
    // what the load left: its memory reducer runs some seconds after allocation slows
    // (about 9 s in the runs of docs/performance.md, 350 -> 261 MB), so the steady
    // figure is read after SETTLE_MS without callbacks.
    await new Promise((r) => setTimeout(r, 1500));
    const rssAfterLoadMb = rssMb(engine.child.pid!);
    for (let waited = 1500; waited < SETTLE_MS; waited += 1500) {
      await new Promise((r) => setTimeout(r, 1500));
      if (process.env.BENCH_DEBUG) process.stderr.write(`rss ${rssMb(engine.child.pid!)}\n`);
    }
    const mb = async (name: string) =>
      (await scrape(healthPort, `nodejs_memory_${name}`)) / 2 ** 20;
    const [heapUsedMb, heapTotalMb, externalMb] = [
      await mb('heap_used'),
      await mb('heap_total'),
      await mb('external'),
    ];
    const sample = benchSnapshot('x', 0, null, size);
    const lists = [sample.globalRuleset!.filters, ...sample.productRules.map((r) => r.filters)];
    return {
      shops,
      filters: lists.flat().length,
      conditions: JSON.stringify(sample).split('"type":"condition"').length - 1,
      snapshotBytes: snapshotBytes / shops,
      rssIdleMb,
      rssMb: rssMb(engine.child.pid!),
      rssAfterLoadMb,
      rssPeakMb: rssMb(engine.child.pid!, 'VmHWM'),
      loadSeconds,
      busyShops: busy.length,
      generated,
      heapUsedMb,
      heapTotalMb,
      externalMb,
    };
  } finally {
    await engine?.stop();
    await nc.close();
    await nats.stop();
  }
}
