import { AdminCalls, previewCart } from '../../src/load/admin-api';
import { closedLoop, type LoadRequest } from '../../src/load/generate';
import { rssMb } from '../../src/load/process-watch';
import { startFaultStack } from '../../src/faults/stack';
import { startLoadEngine } from './engine';
import { sentFilter } from '@ratesmith/contracts/testing';

/**
 * Memory flat (docs/reliability.md): RSS after many requests stays within a
 * bound of RSS after a warm-up, for the rate engine (signed callbacks) and
 * the gateway (rate previews, which cross NATS to the engine). Full run:
 * 10k then 100k requests, +20 %; npm test: 1k then 6k (under a minute each
 * on a loaded machine), a loose +60 %.
 */
const FULL = process.env.LOAD_FULL === '1';
const WARM = FULL ? 10_000 : 1_000;
const TOTAL = FULL ? 100_000 : 6_000;
const BOUND = FULL ? 1.2 : 1.6;

/** Sends `warm` then `total - warm` requests, 10 at a time; RSS after each part. */
async function rssAfter(pid: number, next: () => LoadRequest) {
  const run = async (count: number) => {
    const r = await closedLoop({ concurrency: 10, durationMs: 600_000, maxRequests: count, next });
    const failed = r.samples.filter((s) => s.status < 200 || s.status >= 300);
    expect(failed.slice(0, 3)).toEqual([]);
    expect(r.samples.length).toBe(count);
    return r.samples.length / (r.elapsedMs / 1000);
  };
  const warmRate = await run(WARM);
  const warm = rssMb(pid);
  const rate = await run(TOTAL - WARM);
  const after = rssMb(pid);
  return { warm, after, ratio: after / warm, rate: Math.min(warmRate, rate) };
}

const report = (what: string, m: { warm: number; after: number; ratio: number; rate: number }) =>
  console.log(
    `memory flat, ${what}: RSS ${m.warm.toFixed(1)} MB after ${WARM} requests, ${m.after.toFixed(1)} MB after ${TOTAL} (×${m.ratio.toFixed(2)}, bound ×${BOUND}); ≥ ${Math.round(m.rate)} req/s`,
  );

it(`memory flat: the rate engine's RSS after ${TOTAL} callbacks is within ×${BOUND} of after ${WARM}`, async () => {
  const engine = await startLoadEngine();
  try {
    const m = await rssAfter(engine.process.child.pid!, () => engine.callback);
    report('rate engine (carrier callbacks)', m);
    expect(m.ratio).toBeLessThanOrEqual(BOUND);
  } finally {
    await engine.stop();
  }
}, 600_000);

it(`memory flat: the gateway's RSS after ${TOTAL} previews is within ×${BOUND} of after ${WARM}`, async () => {
  const shop = 'load-memory.myshopify.com';
  const stack = await startFaultStack({
    demoShops: [shop],
    base: 'npm-start',
    // One shop's 10 previews at once: past the gateway's per-shop bound on heavy calls,
    // which this test is not about (its memory is).
    env: { API_RATE_LIMIT: '0', HEAVY_CALLS_PER_SHOP: '20' },
  });
  const calls = new AdminCalls(stack.service('gateway').url, shop);
  const refresh = setInterval(() => void calls.refreshToken().catch(() => undefined), 20_000);
  try {
    await calls.refreshToken();
    await calls.call('GET', '/api/global-rules');
    const created = await calls.call('POST', '/api/global-rules', { name: 'Main' });
    const id = created.body.rule.id as string;
    await calls.call('POST', `/api/global-rules/update/${id}`, { rules: [sentFilter()] });
    await calls.call('GET', `/api/global-rules/${id}/toggle`);
    // The engine's preview lane starts with the first preview, at a low priority: on a
    // machine other suites share, its start can outlast the bus's 2 s (a 503). Started
    // first, so the counted previews measure memory, not that start.
    for (let tries = 0; ; tries++) {
      const first = await calls.call('POST', '/api/rate-preview', previewCart);
      if (first.status === 200) break;
      if (tries === 20) throw new Error(`the first preview answered ${first.status}`);
      await new Promise((r) => setTimeout(r, 500));
    }
    const m = await rssAfter(stack.pid('gateway'), () =>
      calls.request('preview', 'POST', '/api/rate-preview', previewCart),
    );
    report('gateway (rate previews)', m);
    console.log(`  rate engine behind it: RSS ${rssMb(stack.pid('rate-engine')).toFixed(1)} MB`);
    expect(m.ratio).toBeLessThanOrEqual(BOUND);
  } finally {
    clearInterval(refresh);
    await stack.stop();
  }
}, 900_000);
