import { AdminCalls, largeRuleset } from '@ratesmith/devstack/dist/load/admin-api';
import { startFaultStack } from '@ratesmith/devstack/dist/faults/stack';
import { startFerretDbWithCommandLog } from '@ratesmith/devstack/dist/load/mongo-commands';

/**
 * The admin's saves one after another, as a merchant makes them (each sent when
 * the last one answered), on a new shop and on the same shop once it has many
 * rulesets, each with a long version history: every service as a built process,
 * NATS with a user per service and TLS, FerretDB behind the command-counting
 * proxy (tools/devstack/src/load/mongo-commands.ts). Times depend on the machine;
 * the commands counted until each answer do not.
 */

const SHOP = 'bench-history.myshopify.com';

export interface SaveFigures {
  label: string;
  p50: number;
  p99: number;
  /** MongoDB commands sent from each request until its answer, per call. */
  commands: number;
  /** Of those, commands FerretDB answers by reading a whole collection. */
  scans: number;
}

export interface SaveHistory {
  rulesets: number;
  versions: number;
  empty: SaveFigures[];
  full: SaveFigures[];
  /** Save All of 100 filters × 50 conditions on the full shop. */
  largest: SaveFigures;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export async function measureSaveHistory(
  options: { rulesets?: number; versions?: number; saves?: number; log?: (s: string) => void } = {},
): Promise<SaveHistory> {
  const { rulesets = 50, versions = 55, saves = 40 } = options;
  const log = options.log ?? (() => undefined);
  const mongo = await startFerretDbWithCommandLog();
  const stack = await startFaultStack({
    demoShops: [SHOP],
    base: 'npm-start',
    mongo: async () => mongo,
    env: { API_RATE_LIMIT: '0' },
  });
  try {
    const calls = new AdminCalls(stack.service('gateway').url, SHOP);
    let tokenAt = 0;
    const ok = async (method: string, path: string, body?: unknown) => {
      if (Date.now() - tokenAt > 30_000) {
        await calls.refreshToken();
        tokenAt = Date.now();
      }
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
    let turn = 0;
    const saveAll = (id: string, filters = 3, conditions = 2) => {
      const body = largeRuleset(filters, conditions);
      body.rules[0]!.name = `Filter ${turn++}`;
      return ok('POST', `/api/global-rules/update/${id}`, body);
    };
    const kinds: [string, () => Promise<unknown>][] = [
      ['Save All, 3 filters (active ruleset)', () => saveAll(main)],
      [
        'settings save',
        () =>
          ok('POST', '/api/settings', {
            carrier_name: `Ratesmith ${turn++}`,
            carrier_description: '',
          }),
      ],
    ];
    const timed = async (label: string, n: number, save: () => Promise<unknown>) => {
      await save(); // warm-up
      const times: number[] = [];
      let commands = 0;
      let scans = 0;
      for (let i = 0; i < n; i++) {
        const mark = mongo.mark();
        const t0 = performance.now();
        await save();
        times.push(performance.now() - t0);
        const sent = mongo.timesSince(mark);
        commands += sent.length;
        scans += sent.filter((c) => c.scans).length;
      }
      times.sort((a, b) => a - b);
      return {
        label,
        p50: percentile(times, 50),
        p99: percentile(times, 99),
        commands: commands / n,
        scans: scans / n,
      };
    };
    const empty: SaveFigures[] = [];
    for (const [label, save] of kinds) empty.push(await timed(label, saves, save));
    log(`empty shop measured; filling: ${rulesets} rulesets x ${versions} versions`);
    const ids = [main];
    while (ids.length < rulesets)
      ids.push((await ok('POST', '/api/global-rules', { name: `R${ids.length}` })).rule.id);
    for (let v = 0; v < versions; v++) {
      // Four saves at a time, of different rulesets; the settings get as many versions.
      for (let k = 0; k < ids.length; k += 4)
        await Promise.all(ids.slice(k, k + 4).map((id) => saveAll(id)));
      await kinds[1]![1]();
      if (v % 10 === 9) log(`${v + 1} of ${versions} versions`);
    }
    const full: SaveFigures[] = [];
    for (const [label, save] of kinds) full.push(await timed(label, saves, save));
    const label = 'Save All, 100 filters x 50 conditions';
    // Past the gateway's 2 s NATS limit it is answered 503: reported, not thrown.
    const largest = await timed(label, 5, () => saveAll(main, 100, 50)).catch((err: unknown) => ({
      label: `${label}: ${(err as Error).message}`,
      p50: NaN,
      p99: NaN,
      commands: NaN,
      scans: NaN,
    }));
    return { rulesets, versions, empty, full, largest };
  } finally {
    await stack.stop();
    await mongo.stop();
  }
}
