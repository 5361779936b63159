import { AdminCalls, largeRuleset } from '@ratesmith/devstack/dist/load/admin-api';
import { startFaultStack } from '@ratesmith/devstack/dist/faults/stack';
import { startFerretDbWithCommandLog } from '@ratesmith/devstack/dist/load/mongo-commands';
import { settled } from '@ratesmith/devstack/dist/load/route-costs';
import {
  startTraceReceiver,
  traceTree,
  type TraceReceiver,
} from '@ratesmith/devstack/dist/load/trace-receiver';
import { DEMO_CATALOG } from '@ratesmith/shopify-double';

/**
 * The admin's saves one after another, as a merchant makes them (each sent when
 * the last one answered), on a new shop and on the same shop once it has many
 * rulesets, each with a long version history: every service as a built process,
 * NATS with a user per service and TLS, FerretDB behind the command-counting
 * proxy (tools/devstack/src/load/mongo-commands.ts). Times depend on the machine;
 * the commands counted until each answer do not.
 */

const SHOP = 'bench-history.myshopify.com';
/** A shop installed once the first has its history: no history of its own, the same database. */
const NEW_SHOP = 'bench-new.myshopify.com';
/** Save All's route as the gateway's server span names it. */
const SAVE_ALL_ROUTE = '/api/global-rules/update/';

export interface SaveFigures {
  label: string;
  /** The p99 goal, ms. */
  goalMs: number;
  p50: number;
  p99: number;
  /** MongoDB commands sent from each request until its answer, per call. */
  commands: number;
  /** Of those, commands FerretDB answers by reading a whole collection. */
  scans: number;
  /** The same commands by `command collection`, per call. */
  byCommand?: Record<string, number>;
}

export interface SaveHistory {
  rulesets: number;
  versions: number;
  /** Product rules on the full shop (one per product of the double's demo catalog). */
  productRules: number;
  empty: SaveFigures[];
  full: SaveFigures[];
  /**
   * The same kinds on a new shop once the database holds the full shop: the shop's own
   * history apart from the collections' size (what FerretDB's costs grow with).
   */
  newInFull: SaveFigures[];
  /** Save All of 100 filters × 50 conditions on the full shop. */
  largest: SaveFigures;
  /**
   * One Save All on a quiet stack, its spans and FerretDB's commands: of 3 filters on
   * each shop, and of 100 × 50 on the full one.
   */
  breakdown: { empty: SaveBreakdown; full: SaveBreakdown; largest: SaveBreakdown };
}

export interface SaveBreakdown {
  /** The client's wait, ms. */
  ms: number;
  /** The trace as indented lines (traceTree). */
  spans: string[];
  /** `command collection` and FerretDB's reply time, ms, in the order sent until the answer. */
  commands: string[];
}

/**
 * One save with MongoDB quiet before it: the trace the services exported for it,
 * and each command FerretDB answered until the client had the answer.
 */
async function breakdownOf(
  save: () => Promise<unknown>,
  mongo: Awaited<ReturnType<typeof startFerretDbWithCommandLog>>,
  traces: TraceReceiver,
  /** The gateway's server span of the save names this route. */
  route: string,
): Promise<SaveBreakdown> {
  await settled(mongo, 1000);
  traces.clear();
  const mark = mongo.mark();
  const sentAt = Date.now();
  const t0 = performance.now();
  await save();
  const ms = performance.now() - t0;
  const commands = mongo
    .timesSince(mark)
    .map((c) => `${c.command} ${c.ms === undefined ? '(no reply yet)' : `${c.ms.toFixed(1)} ms`}`);
  // The services export every 100 ms (OTEL_BSP_SCHEDULE_DELAY below); a loaded machine takes longer.
  const rootOf = () =>
    traces.spans().find(
      (s) =>
        s.service === 'gateway' &&
        !s.parentSpanId &&
        s.name.includes(route) &&
        // Not an earlier save's span exported late (the clocks are the same machine's).
        s.startMs >= sentAt - 5,
    );
  for (let waited = 0; !rootOf() && waited < 10_000; waited += 250)
    await new Promise((r) => setTimeout(r, 250));
  // What followed the answer (the version, the mark) arrives a little later.
  await new Promise((r) => setTimeout(r, 1000));
  const root = rootOf();
  if (root) return { ms, spans: traceTree(traces.spans(), root.traceId), commands };
  const seen = [...new Set(traces.spans().map((s) => `${s.service}: ${s.name}`))];
  return { ms, spans: [`no gateway span of ${route} among: ${seen.join('; ')}`], commands };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export async function measureSaveHistory(
  options: { rulesets?: number; versions?: number; saves?: number; log?: (s: string) => void } = {},
): Promise<SaveHistory> {
  const { rulesets = 50, versions = 55, saves = 100 } = options;
  const log = options.log ?? (() => undefined);
  const mongo = await startFerretDbWithCommandLog();
  const traces = await startTraceReceiver();
  const stack = await startFaultStack({
    demoShops: [SHOP, NEW_SHOP],
    base: 'npm-start',
    mongo: async () => mongo,
    env: {
      API_RATE_LIMIT: '0',
      OTEL_EXPORTER_OTLP_ENDPOINT: traces.endpoint,
      OTEL_BSP_SCHEDULE_DELAY: '100',
    },
  });
  try {
    let turn = 0;
    /** A shop's main ruleset (enabled) and one product rule, and its kinds of save with their goals. */
    const shopUnderTest = async (shop: string) => {
      const calls = new AdminCalls(stack.service('gateway').url, shop);
      const ok = async (method: string, path: string, body?: unknown) => {
        // On loaded cores the first calls of a fresh stack can meet a NATS timeout (503): again.
        for (let attempt = 1; ; attempt++) {
          const res = await calls.call(method, path, body);
          if (res.status === 200) return res.body;
          if (res.status !== 503 || attempt === 3)
            throw new Error(`${method} ${path}: ${res.status}`);
          await new Promise((r) => setTimeout(r, 1000));
        }
      };
      const main = (await ok('POST', '/api/global-rules', { name: 'Main' })).rule.id as string;
      await ok('GET', `/api/global-rules/${main}/toggle`);
      // Product rules: one measured, and on the full shop every other product of the catalog.
      const productRuleIds = async () =>
        ((await ok('GET', '/api/product-rules')).products.data as { id: string }[]).map(
          (r) => r.id,
        );
      await ok('POST', '/api/product-rules/add-shopify-product', {
        products: [String(DEMO_CATALOG[0]!.id)],
      });
      const [productRule] = await productRuleIds();
      const saveAll = (id: string, filters = 3, conditions = 2) => {
        const body = largeRuleset(filters, conditions);
        body.rules[0]!.name = `Filter ${turn++}`;
        return ok('POST', `/api/global-rules/update/${id}`, body);
      };
      const saveProductRule = (id: string) => {
        const body = largeRuleset(3, 2);
        body.rules[0]!.name = `Filter ${turn++}`;
        return ok('POST', `/api/product-rules/update/${id}`, body);
      };
      const saveSettings = () =>
        ok('POST', '/api/settings', {
          carrier_name: `Ratesmith ${turn++}`,
          carrier_description: '',
        });
      // Each kind with its goal, p99 in ms (docs/performance.md).
      const kinds: [string, () => Promise<unknown>, number][] = [
        ['Save All, 3 filters (active ruleset)', () => saveAll(main), 150],
        ['product rule update, 3 filters', () => saveProductRule(productRule!), 150],
        ['product rule toggle', () => ok('GET', `/api/product-rules/${productRule}/toggle`), 150],
        ['settings save', saveSettings, 100],
      ];
      return { ok, main, productRuleIds, saveAll, saveProductRule, saveSettings, kinds };
    };
    const history = await shopUnderTest(SHOP);
    const { ok, main, productRuleIds, saveAll, saveProductRule, kinds } = history;
    /** Times and counts of one kind of save, gathered one call at a time. */
    const sampler = () => {
      const times: number[] = [];
      let commands = 0;
      let scans = 0;
      const byCommand: Record<string, number> = {};
      return {
        async once(save: () => Promise<unknown>) {
          const mark = mongo.mark();
          const t0 = performance.now();
          await save();
          times.push(performance.now() - t0);
          const sent = mongo.timesSince(mark);
          commands += sent.length;
          scans += sent.filter((c) => c.scans).length;
          for (const c of sent) byCommand[c.command] = (byCommand[c.command] ?? 0) + 1;
        },
        figures(label: string, goalMs: number): SaveFigures {
          const n = times.length;
          const sorted = [...times].sort((a, b) => a - b);
          return {
            label,
            goalMs,
            p50: percentile(sorted, 50),
            p99: percentile(sorted, 99),
            commands: commands / n,
            scans: scans / n,
            byCommand: Object.fromEntries(Object.entries(byCommand).map(([c, k]) => [c, k / n])),
          };
        },
      };
    };
    const timed = async (
      label: string,
      n: number,
      save: () => Promise<unknown>,
      goalMs = NaN,
    ): Promise<SaveFigures> => {
      await save(); // warm-up
      const s = sampler();
      for (let i = 0; i < n; i++) await s.once(save);
      return s.figures(label, goalMs);
    };
    /**
     * The same kind on two shops, one call of each in turn: both meet the same moments
     * of the machine (its load, FerretDB's background work), so their ratio is the
     * shops' difference and not the minute's.
     */
    const timedInTurn = async (
      label: string,
      n: number,
      saves: [() => Promise<unknown>, () => Promise<unknown>],
      goalMs: number,
    ): Promise<[SaveFigures, SaveFigures]> => {
      for (const save of saves) await save(); // warm-up
      const samplers = [sampler(), sampler()] as const;
      for (let i = 0; i < n; i++) for (const k of [0, 1] as const) await samplers[k].once(saves[k]);
      return [samplers[0].figures(label, goalMs), samplers[1].figures(label, goalMs)];
    };
    const empty: SaveFigures[] = [];
    for (const [label, save, goal] of kinds) empty.push(await timed(label, saves, save, goal));
    const emptyBreakdown = await breakdownOf(() => saveAll(main), mongo, traces, SAVE_ALL_ROUTE);
    log(`empty shop measured; filling: ${rulesets} rulesets x ${versions} versions`);
    const ids = [main];
    while (ids.length < rulesets)
      ids.push((await ok('POST', '/api/global-rules', { name: `R${ids.length}` })).rule.id);
    // The picker adds at most 50 at a time: every product of the catalog has a rule.
    const others = DEMO_CATALOG.slice(1).map((p) => String(p.id));
    for (let k = 0; k < others.length; k += 50) {
      const products = others.slice(k, k + 50);
      // A loaded machine can answer 503 to a call that was applied: its retry adds nothing (409).
      await ok('POST', '/api/product-rules/add-shopify-product', { products }).catch(
        (err: Error) => {
          if (!err.message.endsWith(': 409')) throw err;
        },
      );
    }
    const productRules = await productRuleIds();
    for (let v = 0; v < versions; v++) {
      // Two saves at a time (a shop's heavy calls at once, services/gateway/src/http/heavy-calls.ts),
      // of different rulesets and product rules; the settings get as many versions.
      const subjects = [
        ...ids.map((id) => () => saveAll(id)),
        ...productRules.map((id) => () => saveProductRule(id)),
      ];
      for (let k = 0; k < subjects.length; k += 2)
        await Promise.all(subjects.slice(k, k + 2).map((save) => save()));
      await history.saveSettings();
      if (v % 10 === 9) log(`${v + 1} of ${versions} versions`);
    }
    const fresh = await shopUnderTest(NEW_SHOP);
    const full: SaveFigures[] = [];
    const newInFull: SaveFigures[] = [];
    for (const [k, [label, save, goal]] of kinds.entries()) {
      const [onFull, onNew] = await timedInTurn(label, saves, [save, fresh.kinds[k]![1]], goal);
      full.push(onFull);
      newInFull.push(onNew);
    }
    const fullBreakdown = await breakdownOf(() => saveAll(main), mongo, traces, SAVE_ALL_ROUTE);
    const label = 'Save All, 100 filters x 50 conditions';
    // Past the gateway's 2 s NATS limit it is answered 503: reported, not thrown.
    const largest = await timed(label, 5, () => saveAll(main, 100, 50), 1000).catch(
      (err: unknown) => ({
        label: `${label}: ${(err as Error).message}`,
        goalMs: 1000,
        p50: NaN,
        p99: NaN,
        commands: NaN,
        scans: NaN,
      }),
    );
    return {
      rulesets,
      versions,
      productRules: productRules.length,
      empty,
      full,
      newInFull,
      largest,
      breakdown: {
        empty: emptyBreakdown,
        full: fullBreakdown,
        largest: await breakdownOf(() => saveAll(main, 100, 50), mongo, traces, SAVE_ALL_ROUTE),
      },
    };
  } finally {
    await stack.stop();
    await mongo.stop();
    await traces.stop();
  }
}
