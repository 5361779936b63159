import { AdminCalls } from '../../src/load/admin-api';
import { closedLoop, figuresByRoute, formatFigures } from '../../src/load/generate';
import { ProcessWatch, rssMb } from '../../src/load/process-watch';
import { startFaultStack, type FaultStack } from '../../src/faults/stack';

/**
 * R13 (docs/reliability.md): past capacity the gateway sheds load with
 * 429/503 instead of slowing everything. 200 clients without pause for 60 s
 * (`npm run test:load`) or 10 s (npm test), spread over 10 shops, on the
 * rulesets list (gateway → NATS → rules → MongoDB). Only 2xx/429/503, the
 * gateway alive after, its RSS under 300 MB (400 in npm test); its health port's answer time
 * (an outside bound on its event-loop delay) is printed, and checked against
 * 200 ms in the full run.
 */
const FULL = process.env.LOAD_FULL === '1';
const SECONDS = FULL ? 60 : 10;
const SHOPS = Array.from({ length: 10 }, (_, i) => `load-shed-${i + 1}.myshopify.com`);

let stack: FaultStack;
beforeAll(async () => {
  // The gateway's defaults (API_RATE_LIMIT 600 a minute per shop), as production runs it.
  stack = await startFaultStack({ demoShops: SHOPS, base: 'npm-start' });
}, 180_000);
afterAll(() => stack?.stop());

it(`R13: 200 clients for ${SECONDS} s get only 2xx/429/503; the gateway lives, RSS < 300 MB`, async () => {
  const gateway = stack.service('gateway');
  const shops = SHOPS.map((shop) => new AdminCalls(gateway.url, shop));
  for (const calls of shops) {
    await calls.refreshToken();
    expect((await calls.call('GET', '/api/global-rules')).status).toBe(200);
  }
  const refresh = setInterval(
    () => void Promise.all(shops.map((c) => c.refreshToken())).catch(() => undefined),
    20_000,
  );
  const rssBefore = rssMb(stack.pid('gateway'));
  const watch = new ProcessWatch([
    {
      name: 'gateway',
      pid: stack.pid('gateway'),
      healthUrl: `http://127.0.0.1:${gateway.ports.health}/livez`,
    },
  ]);
  watch.start();
  const result = await closedLoop({
    concurrency: 200,
    durationMs: SECONDS * 1000,
    next: (i) => shops[i % shops.length]!.request('list rulesets', 'GET', '/api/global-rules'),
    // An answer later than this counts as none. npm test's run shares two cores with many
    // stacks, where the gateway's loop fell seconds behind (3 of 1,380 took 10.8 s): 30 s there.
    timeoutMs: FULL ? 10_000 : 30_000,
  }).finally(() => {
    clearInterval(refresh);
    watch.stop();
  });
  const bySource = result.samples.map((s) => ({
    ...s,
    label: s.status === 200 ? 'answered (200)' : `shed (${s.status})`,
  }));
  const rss = watch.maxRssMb('gateway');
  const probeP99 = watch.probeP99('gateway');
  // The loop's own delay over the run (services/kit/src/runtime-metrics.ts): one scrape, at the end.
  const metrics = await (await fetch(`http://127.0.0.1:${gateway.ports.health}/metrics`)).text();
  const loopDelayMs = (name: string) =>
    Number(new RegExp(`^${name}\\{[^}]*\\} (\\S+)$`, 'm').exec(metrics)?.[1]) * 1000;
  const loopP99 = loopDelayMs('nodejs_eventloop_delay_p99');
  // Its memory at the end, by kind (runtime-metrics.ts): where a resident figure comes from.
  const memoryMb = (name: string) =>
    Number(new RegExp(`^nodejs_memory_${name}\\{[^}]*\\} (\\S+)$`, 'm').exec(metrics)?.[1]) /
    2 ** 20;
  const memory = `at the end: resident ${memoryMb('rss').toFixed(1)} MB, V8 heap ${memoryMb('heap_used').toFixed(1)} MB used of ${memoryMb('heap_total').toFixed(1)} MB, external ${memoryMb('external').toFixed(1)} MB (Buffers ${memoryMb('array_buffers').toFixed(1)} MB)`;
  console.log(
    `R13, 200 clients for ${SECONDS} s, ${Math.round(result.samples.length / (result.elapsedMs / 1000))} req/s:\n${formatFigures(figuresByRoute(bySource))}\n` +
      `gateway max RSS ${rss.toFixed(1)} MB (${rssBefore.toFixed(1)} MB before the load); event loop delay p99 ${loopP99.toFixed(1)} ms, max ${loopDelayMs('nodejs_eventloop_delay_max').toFixed(1)} ms (inside); ` +
      `/livez answer p99 ${probeP99.toFixed(1)} ms over ${watch.probeCount('gateway')} probes (outside); ${memory}`,
  );
  const other = result.samples.filter(
    (s) => !(s.status === 200 || s.status === 429 || s.status === 503),
  );
  expect(other.slice(0, 5)).toEqual([]);
  expect(gateway.running()).toBe(true);
  expect(rss).toBeGreaterThan(0);
  expect(memoryMb('heap_used')).toBeGreaterThan(1);
  expect(memoryMb('rss')).toBeGreaterThan(memoryMb('heap_used'));
  // The target (300 MB) in the full run; npm test's short run (249.5 MB measured) gets room.
  expect(rss).toBeLessThan(FULL ? 300 : 400);
  expect(loopP99).toBeGreaterThan(0);
  if (FULL) expect(loopP99).toBeLessThan(200);
}, 180_000);
