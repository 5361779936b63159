import { largeRuleset, previewCart } from '../../src/load/admin-api';
import type { LoggedMongo } from '../../src/load/mongo-commands';
import {
  formatCosts,
  measureRoute,
  settled,
  startCountedStack,
  total,
  type CountedStack,
  type RouteCost,
} from '../../src/load/route-costs';
import type { FaultStack } from '../../src/faults/stack';

/**
 * What each call of the admin load mix costs, counted: MongoDB
 * commands, NATS requests and CPU time per process, one call at a time.
 * Counts do not depend on how busy the machine is, so they are what this
 * suite asserts; the table it prints goes to docs/performance.md.
 */
const SHOP = 'load-costs.myshopify.com';
// Counts are averages per call: 8 calls of each route tell a fraction of a command apart.
const CALLS = 8;

describe('the admin mix, counted per call', () => {
  let mongo: LoggedMongo;
  let stack: FaultStack;
  let ok: CountedStack['ok'];
  const costs = new Map<string, RouteCost>();
  let mainSaves = 0;
  let main = '';
  let spare = '';

  beforeAll(async () => {
    ({ mongo, stack, ok } = await startCountedStack(SHOP));
    expect((await ok('GET', '/api/global-rules')).globalRules).toEqual([]);
    main = (await ok('POST', '/api/global-rules', { name: 'Large' })).rule.id as string;
    spare = (await ok('POST', '/api/global-rules', { name: 'Spare' })).rule.id as string;
    await ok('POST', `/api/global-rules/update/${main}`, largeRuleset());
    await ok('GET', `/api/global-rules/${main}/toggle`);
    const processes = [
      ...(['gateway', 'auth', 'rules', 'rate-engine'] as const).map((name) => ({
        name,
        pid: stack.pid(name),
        healthPort: stack.service(name).ports.health,
      })),
      { name: 'ferretdb', pid: stack.mongo.pid() },
    ];
    const measure = async (label: string, n: number, call: (i: number) => Promise<void>) => {
      await call(-1); // warm-up: first-use costs (JIT, caches) are not the route's
      await settled(mongo, 2000); // and what earlier calls started after their answers is done
      costs.set(label, await measureRoute({ label, calls: n, call, mongo, processes }));
    };
    // The Save All body alternates between two lists, so every call writes (a repeat writes nothing).
    const bodies = [largeRuleset(), largeRuleset()];
    bodies[1]!.rules[0]!.name = 'Filter 1, renamed';
    const settings = { carrier_name: 'Ratesmith', carrier_description: 'Rules' };
    await measure('list rulesets', CALLS, () => ok('GET', '/api/global-rules'));
    await measure('get filters', CALLS, () =>
      ok('GET', `/api/global-rules/rules?globalRuleId=${main}`),
    );
    await measure('settings read', CALLS, () => ok('GET', '/api/settings'));
    await measure('preview', CALLS, () => ok('POST', '/api/rate-preview', previewCart));
    await measure('settings write', CALLS, () => ok('POST', '/api/settings', settings));
    // An even number of toggles of the spare leaves it off again (and the main one off too).
    await measure('toggle', CALLS, () => ok('GET', `/api/global-rules/${spare}/toggle`));
    await ok('GET', `/api/global-rules/${main}/toggle`);
    expect((await ok('GET', '/api/global-rules')).shop.global_rule_id).toBe(main);
    await measure('save all (100×10), active, changed', CALLS, (i) =>
      ok('POST', `/api/global-rules/update/${main}`, bodies[(i + 2) % 2]),
    );
    // What the editor sends after a save: the saved list, ids included (a repeat changes nothing).
    const saved = await ok('POST', `/api/global-rules/update/${main}`, bodies[0]);
    await measure('save all (100×10), unchanged', CALLS, () =>
      ok('POST', `/api/global-rules/update/${main}`, { rules: saved.rules }),
    );
    // Reading the history waits for the versions still being written.
    const history = await ok('GET', `/api/global-rules/${main}/versions`);
    mainSaves = history.versions.filter((v: { event: string }) => v.event === 'save').length;
    console.log(
      `admin mix, cost per call (${CALLS} calls each):\n${formatCosts([...costs.values()])}`,
    );
  }, 600_000);

  afterAll(async () => {
    await stack?.stop();
  });

  const cost = (label: string) => costs.get(label)!;

  const WRITES = ['insert', 'update', 'delete', 'findAndModify'];
  const writes = (counts: Record<string, number>) =>
    WRITES.reduce((n, name) => n + (counts[name] ?? 0), 0);
  // The retry loop reads the dirty shops every few seconds: a fraction of a find may land anywhere.
  const SLACK = 0.5;

  it('measured every route', () => {
    for (const c of costs.values()) expect(c.wallMs.length).toBe(CALLS);
  });

  it('reads read each document once, and in one NATS request', () => {
    expect(total(cost('list rulesets').commandsBeforeAnswer)).toBeLessThanOrEqual(2 + SLACK);
    expect(total(cost('get filters').commandsBeforeAnswer)).toBeLessThanOrEqual(2 + SLACK);
    expect(total(cost('settings read').commandsBeforeAnswer)).toBeLessThanOrEqual(1 + SLACK);
    for (const label of ['list rulesets', 'get filters', 'settings read', 'preview'])
      expect(writes(cost(label).commands)).toBe(0);
    // The list counts filters without reading them: the 100-filter ruleset is about 190 KB.
    expect(cost('list rulesets').replyKb).toBeLessThan(10);
  });

  it('answers a save once it is stored and published: the version is written after', () => {
    for (const label of ['save all (100×10), active, changed', 'toggle']) {
      const { commandsBeforeAnswer, commands } = cost(label);
      // The rules service starts the version's write as it answers, and a packed list's
      // content is inserted in a few ms: it can reach FerretDB before the answer has come
      // back through the gateway to the client (the test below holds it back to show the order).
      expect(commandsBeforeAnswer.insert ?? 0).toBeLessThanOrEqual(2);
      // Read settings and ruleset (toggle: ruleset, then settings to flip), mark, write,
      // version, build (3 reads), mark published; and part of the version's 3 commands.
      expect(total(commandsBeforeAnswer)).toBeLessThanOrEqual(11 + SLACK);
      // ...and the version is still written, content and line (most before the next call; all, below).
      expect(commands.insert).toBeGreaterThan(1.5);
    }
    // One version per changing save: setup, warm-up, CALLS measured, and the one before the repeats.
    expect(mainSaves).toBe(CALLS + 3);
  });

  it("does not wait for the version: with its number's read held 5 s, a save still answers at once", async () => {
    const HOLD_MS = 5000;
    const renamed = largeRuleset();
    renamed.rules[0]!.name = 'Filter 1, held';
    const calls: [string, string, () => Promise<unknown>][] = [
      ['save', main, () => ok('POST', `/api/global-rules/update/${main}`, renamed)],
      ['toggle', spare, () => ok('GET', `/api/global-rules/${spare}/toggle`)],
    ];
    const release = mongo.hold('findAndModify version_counters', HOLD_MS);
    try {
      for (const [label, id, call] of calls) {
        const mark = mongo.mark();
        const started = performance.now();
        await call();
        // Awaited, the answer would come after the held read (or the gateway's deadline).
        const answeredMs = performance.now() - started;
        expect({ label, beforeTheHoldEnds: answeredMs < HOLD_MS }).toEqual({
          label,
          beforeTheHoldEnds: true,
        });
        // The history waits for the version, which is written once the read is let through.
        await ok('GET', `/api/global-rules/${id}/versions`);
        expect(performance.now() - started).toBeGreaterThanOrEqual(HOLD_MS);
        const sent = mongo.timesSince(mark).map((c) => c.command);
        const read = sent.indexOf('findAndModify version_counters');
        expect({ label, read: read >= 0 }).toEqual({ label, read: true });
        expect(sent.indexOf('insert versions', read)).toBeGreaterThan(read);
      }
    } finally {
      release();
    }
  }, 60_000);

  it('a repeated Save All writes nothing', () => {
    expect(writes(cost('save all (100×10), unchanged').commands)).toBe(0);
  });

  it("the session's installed check is cached: not one auth request per call", () => {
    for (const c of costs.values()) expect(c.rpcs['auth.GetShop'] ?? 0).toBeLessThan(0.5);
  });
});
