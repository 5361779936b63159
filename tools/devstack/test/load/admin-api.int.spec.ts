import { AdminCalls, adminMix, largeRuleset } from '../../src/load/admin-api';
import { closedLoop, figuresByRoute, formatFigures, openLoop } from '../../src/load/generate';
import { startFerretDbWithCommandLog } from '../../src/load/mongo-commands';
import { startFaultStack, type FaultStack } from '../../src/faults/stack';

/**
 * The admin API under load (issues 14 and 18): every service as a process,
 * FerretDB, one NATS server; the editor's calls mixed. npm test runs the mix
 * one call at a time for 10 s and asserts no errors (with many stacks on two
 * cores, FerretDB's SQLite took seconds per Save All and overlapping calls hit
 * the rules service's database time limit). `npm run test:load` runs it for
 * 60 s at ADMIN_LOAD_RATE requests a second, asserts no errors and reports the
 * goals (p99 < 50 ms for reads, < 150 ms for Save All). The default rate is
 * what this devstack sustains on two cores: FerretDB's own CPU per call is the
 * limit (docs/reliability.md, R13); `ADMIN_LOAD_RATE=50` is the first goal's rate (docs/performance.md).
 */
const FULL = process.env.LOAD_FULL === '1';
const SECONDS = FULL ? 60 : 10;
const RATE = Number(process.env.ADMIN_LOAD_RATE ?? 10);
const SHOP = 'load-admin.myshopify.com';
const READS = ['list rulesets', 'get filters', 'settings read'];

async function prepare(stack: FaultStack) {
  const calls = new AdminCalls(stack.service('gateway').url, SHOP);
  await calls.refreshToken();
  const list = await calls.call('GET', '/api/global-rules');
  expect(list.status).toBe(200);
  const main = await calls.call('POST', '/api/global-rules', { name: 'Large' });
  const spare = await calls.call('POST', '/api/global-rules', { name: 'Spare' });
  const ids = { main: main.body.rule.id as string, spare: spare.body.rule.id as string };
  const saved = await calls.call('POST', `/api/global-rules/update/${ids.main}`, largeRuleset());
  expect(saved.status).toBe(200);
  return { calls, ids };
}

/** The last error lines of the rules service and the gateway, to say why a call failed. */
function errorLines(stack: FaultStack): string {
  return (['rules', 'gateway'] as const)
    .flatMap((name) =>
      stack
        .service(name)
        .logText()
        .split('\n')
        .filter((line) => /"level":"?(error|warn|50|40)/.test(line))
        .slice(-4)
        .map((line) => `${name}: ${line.slice(0, 600)}`),
    )
    .join('\n');
}

describe('admin API under load', () => {
  let stack: FaultStack;
  beforeAll(async () => {
    stack = await startFaultStack({
      demoShops: [SHOP],
      base: 'npm-start',
      env: {
        // Per-shop limits off: one shop sends the whole mix (600 a minute would answer 429).
        API_RATE_LIMIT: '0',
        // npm test shares two cores with many stacks, where one Save All of 100 filters
        // took 1-2.6 s: a generous time limit so the short run checks errors, not speed.
        ...(FULL ? {} : { NATS_REQUEST_TIMEOUT_MS: '15000' }),
      },
    });
  }, 180_000);
  afterAll(() => stack?.stop());

  it(`answers the editor's calls ${FULL ? `at ${RATE} requests/s` : 'one at a time'} for ${SECONDS} s without an error`, async () => {
    const { calls, ids } = await prepare(stack);
    const active = await calls.call('GET', `/api/global-rules/${ids.main}/toggle`);
    expect(active.body.message).toBe('Ruleset enabled.');
    const refresh = setInterval(() => void calls.refreshToken().catch(() => undefined), 20_000);
    const load = {
      durationMs: SECONDS * 1000,
      next: adminMix(calls, ids),
      timeoutMs: FULL ? 10_000 : 30_000,
    };
    const result = await (
      FULL ? openLoop({ ...load, rate: RATE }) : closedLoop({ ...load, concurrency: 1 })
    ).finally(() => clearInterval(refresh));
    const figures = figuresByRoute(result.samples);
    const failed = result.samples.filter((s) => s.status < 200 || s.status >= 300);
    const reads = figures.filter((f) => READS.includes(f.label));
    const save = figures.find((f) => f.label.startsWith('save all'))!;
    const readP99 = Math.max(...reads.map((f) => f.p99));
    const goals = `reads p99 ${readP99.toFixed(1)} ms (goal < 50): ${readP99 < 50 ? 'met' : 'NOT met'}; Save All p99 ${save.p99.toFixed(1)} ms (goal < 150): ${save.p99 < 150 ? 'met' : 'NOT met'}`;
    console.log(
      `admin API, ${FULL ? `${RATE} req/s` : 'one call at a time,'} mixed for ${SECONDS} s (${result.samples.length} requests):\n${formatFigures(figures)}\n${goals}`,
    );
    if (failed.length) console.log(`what the services logged:\n${errorLines(stack)}`);
    expect(failed.slice(0, 5)).toEqual([]);
    if (FULL) expect(result.samples.length).toBe(RATE * SECONDS);
    else expect(result.samples.length).toBeGreaterThan(0);
    // Goals are reported, not asserted (docs/performance.md keeps the figures).
  }, 180_000);
});

describe('MongoDB commands of one Save All', () => {
  it('counts the reads and writes one Save All of 100 filters makes', async () => {
    const mongo = await startFerretDbWithCommandLog();
    // Long time limits: only the count matters here, not how long a busy machine takes.
    const stack = await startFaultStack({
      demoShops: [SHOP],
      base: 'npm-start',
      mongo: async () => mongo,
      env: { NATS_REQUEST_TIMEOUT_MS: '30000', MONGODB_TIMEOUT_MS: '25000' },
    });
    try {
      const calls = new AdminCalls(stack.service('gateway').url, SHOP);
      await calls.refreshToken();
      expect((await calls.call('GET', '/api/global-rules')).status).toBe(200);
      const created = await calls.call('POST', '/api/global-rules', { name: 'Large' });
      const ids = { main: created.body.rule.id as string };
      await new Promise((r) => setTimeout(r, 500));
      const mark = mongo.mark();
      const saved = await calls.call(
        'POST',
        `/api/global-rules/update/${ids.main}`,
        largeRuleset(),
      );
      if (saved.status !== 200) console.log(errorLines(stack));
      expect(saved.status).toBe(200);
      // The snapshot's publication follows the acknowledgement: its reads count too.
      await new Promise((r) => setTimeout(r, 2000));
      const commands = mongo.commandsSince(mark);
      const counts: Record<string, number> = {};
      for (const c of commands) counts[c] = (counts[c] ?? 0) + 1;
      console.log(
        `MongoDB commands of one Save All: ${commands.join(', ')}\n${JSON.stringify(counts)}`,
      );
      // It must at least write the filters; the figure itself goes to docs/performance.md.
      expect(commands.some((c) => ['update', 'insert', 'findAndModify'].includes(c))).toBe(true);
    } finally {
      await stack.stop();
    }
  }, 180_000);
});
