import { loadavg } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { DEMO_CATALOG } from '@ratesmith/shopify-double';
import { largeRuleset } from '../../../../tools/devstack/src/load/admin-api';
import { SHOP_A, SHOP_B } from '../harness';
import { cart, filterJson, raw, rateKeyOf, seedShop, signBody, until } from './helpers';
import { LANE_NICE } from '@ratesmith/kit';
import { startNoisyStack, type NoisyStack } from './noisy-stack';

/**
 * Issue 33's proof: a noisy neighbour. On one shared stack, shop A floods every
 * expensive route (Save All at the spec's limit, import, export, the rate preview
 * of a 100 × 50 draft, hostile and unsigned carrier callbacks for its own rate key)
 * from FLOOD_LOOPS loops at once, while shop B's admin reads, saves and signed
 * callbacks are measured, first alone and then during the flood. A's client and B's
 * each run in a thread of their own (flood-calls.worker.js, timed-calls.worker.js).
 *
 * Always asserted: B gets no 5xx during the flood and every one of its answers is
 * the right one; what A was refused left no trace in A's rulesets, and the
 * callbacks A's key was sent unsigned or malformed are not in A's analytics.
 * The latency table is printed; only NOISY_FULL=1 (4 rounds, 400 calls of each kind of B's per condition)
 * asserts the issue's goals, B's admin reads and callbacks at p99 within 2× of B alone.
 *
 * The app runs in production's shape, each service its own process (noisy-stack.ts):
 * the rate engine's preview lane (services/rate-engine/src/preview/lane.ts) and the rules
 * lane (services/rules/src/lane.ts) are checked to have run at their lower priority and
 * to have taken work (in the long form, the engine's all of A's large snapshots).
 *
 * The stack runs the production defaults of every bound that protects B
 * (HEAVY_CALLS_PER_SHOP 2, MAX_IN_FLIGHT 100, NATS_REQUEST_TIMEOUT_MS 2000, body limits,
 * CARRIER_HMAC_MODE verify-present, the carrier rate limits) except API_RATE_LIMIT,
 * left off (as in every test stack) so A is bounded by nothing but its loops.
 */

const FULL = process.env.NOISY_FULL === '1';
/**
 * B alone, then B under A's flood, ROUNDS times: alternating rounds put a drift of the
 * machine's speed into both figures alike.
 */
const ROUNDS = FULL ? 4 : 1;
/** Calls of each of B's kinds in each phase of a round. */
const N = FULL ? 100 : 15;
/** B's calls of each kind under each condition (alone, flood). */
const SAMPLES = ROUNDS * N;
/**
 * Between a flood and the next round's B alone: longer than the bus's 2 s deadline, so A's
 * refused work is over (B's figures alone are not measured beside the flood's tail).
 */
const SETTLE_MS = 3000;
const FLOOD_LOOPS = 4;
/** The issue's goal for B's reads and callbacks: p99 within this factor of B alone (NOISY_FULL only). */
const GOAL = 2;

let stack: NoisyStack;
let keyA: string;
let keyB: string;
/** A's ruleset its flood's Save Alls replace (the active one: each save republishes A's snapshot). */
let floodRulesetA: string;
/** B's inactive ruleset, which B's saves replace (its active one gives B's rates). */
let savedB: string;
let rulesetNamesB: string[];
/** What a read of B's saved ruleset must show: B's last save (B's calls are sequential). */
let lastSavedB: string[];
/** The body of B's signed callback and its answer before any flood. */
const bodyB = JSON.stringify({ rate: cart() });
let ratesB: string;
/** A's configuration as exported, the base of its import files. */
let exportA: Record<string, unknown>;
/** A's callbacks answered 200 and signed (counted in A's analytics): rateKeyOf's one. */
let countedA = 1;

beforeAll(async () => {
  stack = await startNoisyStack();
  const seededA = await seedShop(stack, SHOP_A, 'Alpha', DEMO_CATALOG[0]!.id);
  const seededB = await seedShop(stack, SHOP_B, 'Bravo', DEMO_CATALOG[1]!.id);
  floodRulesetA = seededA.rulesetIds[0]!;
  savedB = seededB.rulesetIds[1]!;
  rulesetNamesB = ['Bravo ruleset one', 'Bravo ruleset two'];
  // A signed callback each: from here on Shopify is known to sign these keys' callbacks.
  keyA = await rateKeyOf(stack, SHOP_A, stack.secret);
  keyB = await rateKeyOf(stack, SHOP_B, stack.secret);
  // B's answer once the engine has B's whole snapshot (its ruleset's rate and the bump of its
  // settings, the last thing seeded): every later callback of B's must repeat it.
  const first = await until(
    callbackB,
    (r) =>
      r.status === 200 &&
      ['Bravo one rate', 'Bravo bump'].every((name) => r.text.includes(`"${name}"`)),
    "B's rates at the engine",
  );
  ratesB = first.text;
  const saved = await stack.api(`/api/global-rules/rules?globalRuleId=${savedB}`, {
    token: stack.token(SHOP_B),
  });
  expect(saved.status).toBe(200);
  lastSavedB = names(saved.body.rules);
  expect(lastSavedB).toEqual(['Bravo two filter']);
  const exported = await stack.api('/api/config/export', { token: stack.token(SHOP_A) });
  expect(exported.status).toBe(200);
  exportA = exported.body;
  serializeBodiesA();
  // A's checkout ruleset at the limits before anything is measured: the engine decodes
  // its large snapshot (on its lane) whatever the flood lets through later (the flood's
  // heavy calls run on the lanes, which a busy machine may starve).
  // Sent again while it times out: the lanes run at a low priority, and beside another
  // suite's stack a save of 100 × 50 there can outlast the bus's 2 s (the same list
  // saved again writes nothing).
  await until(
    () =>
      stack.api(`/api/global-rules/update/${floodRulesetA}`, {
        token: stack.token(SHOP_A),
        method: 'POST',
        json: tagged('seeded'),
      }),
    (r) => r.status === 200,
    "A's seeding save",
    60_000,
  );
  await until(
    () => stack.metrics('rate-engine', 'ratesmith_snapshot_large_decodes'),
    (samples) => samples.some((m) => m.value > 0),
    "A's large snapshot decoded at the engine",
    30_000,
  );
}, 120_000);
afterAll(() => stack?.stop(), 120_000);

const callbackB = () =>
  raw(`${stack.carrierUrl}/carrier/rates/${keyB}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-shopify-hmac-sha256': signBody(bodyB, stack.secret),
    },
    body: bodyB,
  });

// ---------------------------------------------------------------- B's sequence

type KindB = 'list rulesets' | 'get ruleset' | 'save all (3 filters)' | 'signed callback';
const KINDS_B: KindB[] = [
  'list rulesets',
  'get ruleset',
  'save all (3 filters)',
  'signed callback',
];

interface CallB {
  kind: KindB;
  status: number;
  ms: number;
  /** What was wrong with the answer, if anything. */
  wrong?: string;
}

const names = (rules: { name: string }[]) => rules.map((r) => r.name);

/** B's three filters of save `n` of `phase`. */
const smallRuleset = (phase: string, n: number) => ({
  rules: [0, 1, 2].map((k) => filterJson(`Bravo ${phase} save ${n} filter ${k}`)),
});

interface Request {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
}
interface Answer {
  status: number;
  text: string;
  ms: number;
}

/**
 * Sends `requests` one after another from a thread of their own (timed-calls.worker.js),
 * after `warmUp` (untimed, answers dropped).
 */
function timedCalls(requests: Request[], warmUp: Request[]): Promise<Answer[]> {
  const worker = new Worker(join(__dirname, 'timed-calls.worker.js'), {
    workerData: { requests, warmUp },
  });
  return new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  }).finally(() => worker.terminate()) as Promise<Answer[]>;
}

const jsonOf = (answer: Answer) => {
  try {
    return JSON.parse(answer.text);
  } catch {
    return {};
  }
};

/** B's N calls of each kind, one after another, timed; then each answer checked, in order. */
async function runB(phase: string): Promise<CallB[]> {
  // Tokens for the whole phase (a flood phase takes minutes; Shopify's last 60 s).
  const auth = {
    authorization: `Bearer ${stack.token(SHOP_B, { exp: Math.floor(Date.now() / 1000) + 3600 })}`,
    'content-type': 'application/json',
  };
  const kinds: KindB[] = [];
  const saves: string[][] = [];
  const requests: Request[] = [];
  for (let n = 0; n < N; n++) {
    const save = smallRuleset(phase, n);
    saves.push(names(save.rules));
    kinds.push(...KINDS_B);
    requests.push(
      { url: `${stack.baseUrl}/api/global-rules`, method: 'GET', headers: auth },
      {
        url: `${stack.baseUrl}/api/global-rules/rules?globalRuleId=${savedB}`,
        method: 'GET',
        headers: auth,
      },
      {
        url: `${stack.baseUrl}/api/global-rules/update/${savedB}`,
        method: 'POST',
        headers: auth,
        body: JSON.stringify(save),
      },
      {
        url: `${stack.carrierUrl}/carrier/rates/${keyB}`,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-shopify-hmac-sha256': signBody(bodyB, stack.secret),
        },
        body: bodyB,
      },
    );
  }
  // A read and a callback, which change nothing B's checks look at.
  const answers = await timedCalls(requests, [requests[0]!, requests[3]!]);
  return answers.map((answer, i) => {
    const kind = kinds[i]!;
    const body = answer.status === 200 ? jsonOf(answer) : {};
    let wrong: string | undefined;
    if (kind === 'list rulesets') {
      const got = answer.status === 200 ? names(body.globalRules ?? []).sort() : [];
      if (JSON.stringify(got) !== JSON.stringify(rulesetNamesB))
        wrong = `listed ${JSON.stringify(got)}`;
    } else if (kind === 'get ruleset') {
      const got = answer.status === 200 ? names(body.rules ?? []) : [];
      if (JSON.stringify(got) !== JSON.stringify(lastSavedB))
        wrong = `read ${JSON.stringify(got)}, last saved ${JSON.stringify(lastSavedB)}`;
    } else if (kind === 'save all (3 filters)') {
      const sent = saves[Math.floor(i / KINDS_B.length)]!;
      const got = answer.status === 200 ? names(body.rules ?? []) : [];
      if (answer.status === 200) lastSavedB = sent;
      if (JSON.stringify(got) !== JSON.stringify(sent))
        wrong = `saved ${JSON.stringify(got)}: ${answer.text.slice(0, 200)}`;
    } else if (answer.text !== ratesB) wrong = `answered ${answer.text}, before ${ratesB}`;
    return { kind, status: answer.status, ms: answer.ms, wrong };
  });
}

// ---------------------------------------------------------------- A's flood

type KindA =
  | 'save all 100×50'
  | 'save all 101×50 (over the limit)'
  | 'import (100×50 ruleset)'
  | 'import of 49 rulesets (over the limit)'
  | 'export'
  | 'rate preview, 100×50 draft'
  | 'callback, nested 200 KB, signed'
  | 'callback, nested 200 KB, unsigned'
  | 'callback, 512 KB body'
  | 'callback, unsigned';

interface CallA {
  kind: KindA;
  /** 0: the connection failed (e.g. reset after a 413). */
  status: number;
  /** The tag of what a Save All or import wrote, if it wrote. */
  tag?: string;
  started: number;
  ended: number;
}

const bigBody = largeRuleset(100, 50);
/** Stands for a call's tag in A's bodies, serialized once per kind (see `bodiesA`). */
const TAG = '@@tag@@';
const tagged = (tag: string, filters = 100) => {
  const body = filters === 100 ? bigBody : largeRuleset(filters, 50);
  return { rules: [{ ...body.rules[0]!, name: tag }, ...body.rules.slice(1)] };
};
const nested = (bytes: number) => `${'['.repeat(bytes / 2)}${']'.repeat(bytes / 2)}`;
const NESTED = nested(200 * 1024);
const OVERSIZED = JSON.stringify({ rate: { ...cart(), note: 'x'.repeat(512 * 1024) } });
const UNSIGNED = JSON.stringify({ rate: cart(99) });

const KINDS_A: KindA[] = [
  'save all 100×50',
  'callback, nested 200 KB, signed',
  'import (100×50 ruleset)',
  'callback, unsigned',
  'rate preview, 100×50 draft',
  'callback, 512 KB body',
  'export',
  'callback, nested 200 KB, unsigned',
  'save all 101×50 (over the limit)',
  'import of 49 rulesets (over the limit)',
];

/**
 * A's request bodies as JSON, each made once with TAG where a call's tag goes: A's
 * client shares the machine with the app it floods, so its work is kept to a string
 * replace per call (a 100 × 50 body takes milliseconds to serialize).
 */
let bodiesA: Record<'save' | 'refusedSave' | 'import' | 'refusedImport' | 'preview', string>;

function serializeBodiesA(): void {
  bodiesA = {
    save: JSON.stringify(tagged(TAG)),
    refusedSave: JSON.stringify(tagged(TAG, 101)),
    import: JSON.stringify({
      ...exportA,
      rulesets: [{ name: 'Alpha imported', enabled: false, filters: tagged(TAG).rules }],
      product_rules: [],
    }),
    // A has at least 2 rulesets: 49 new ones pass the file's bound, not the shop's 50.
    refusedImport: JSON.stringify({
      ...exportA,
      rulesets: Array.from({ length: 49 }, (_, k) => ({
        name: `${TAG} ruleset ${k}`,
        enabled: false,
        filters: [],
      })),
      product_rules: [],
    }),
    preview: JSON.stringify({
      rate: cart(),
      draft: { globalRuleId: floodRulesetA, rules: bigBody.rules },
    }),
  };
}

/**
 * A's calls as the flood thread sends them, one template per kind, in KINDS_A's order;
 * the tags of what they write name the round, so each is unique in the test.
 */
function floodTemplates(round: number) {
  // Tokens for the whole phase (a flood phase takes minutes; Shopify's last 60 s).
  const token = stack.token(SHOP_A, { exp: Math.floor(Date.now() / 1000) + 3600 });
  const api = (path: string, body?: string, tagPrefix?: string) => ({
    url: `${stack.baseUrl}${path}`,
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body,
    tagPrefix,
    timeoutMs: 30_000,
  });
  const callback = (body: string, signed: boolean) => ({
    url: `${stack.carrierUrl}/carrier/rates/${keyA}`,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(signed ? { 'x-shopify-hmac-sha256': signBody(body, stack.secret) } : {}),
    },
    body,
    timeoutMs: 10_000,
  });
  const save = `/api/global-rules/update/${floodRulesetA}`;
  const byKind: Record<KindA, ReturnType<typeof api> | ReturnType<typeof callback>> = {
    'save all 100×50': api(save, bodiesA.save, `Flood save (round ${round})`),
    'save all 101×50 (over the limit)': api(
      save,
      bodiesA.refusedSave,
      `Flood refused save (round ${round})`,
    ),
    'import (100×50 ruleset)': api(
      '/api/config/import',
      bodiesA.import,
      `Flood import (round ${round})`,
    ),
    'import of 49 rulesets (over the limit)': api(
      '/api/config/import',
      bodiesA.refusedImport,
      `Flood refused import (round ${round})`,
    ),
    export: api('/api/config/export'),
    'rate preview, 100×50 draft': api('/api/rate-preview', bodiesA.preview),
    'callback, nested 200 KB, signed': callback(NESTED, true),
    'callback, nested 200 KB, unsigned': callback(NESTED, false),
    'callback, 512 KB body': callback(OVERSIZED, true),
    'callback, unsigned': callback(UNSIGNED, false),
  };
  return KINDS_A.map((kind) => ({ kind, ...byKind[kind] }));
}

/**
 * FLOOD_LOOPS loops, each sending A's next kind of call, until `stop` resolves: from a
 * thread of their own (flood-calls.worker.js).
 */
async function floodA(round: number, stop: Promise<unknown>): Promise<CallA[]> {
  const worker = new Worker(join(__dirname, 'flood-calls.worker.js'), {
    workerData: { templates: floodTemplates(round), loops: FLOOD_LOOPS, tag: TAG },
  });
  void stop.finally(() => worker.postMessage('stop'));
  return new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  }).finally(() => worker.terminate()) as Promise<CallA[]>;
}

// ---------------------------------------------------------------- figures

const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
const p99 = (calls: CallB[], kind: KindB) =>
  percentile(
    calls.filter((c) => c.kind === kind).map((c) => c.ms),
    99,
  );

function table(alone: CallB[], flood: CallB[], a: CallA[], load: string[]): string {
  const ms = (x: number) => x.toFixed(1);
  const lines = [
    `Noisy neighbour (${FULL ? 'NOISY_FULL' : 'short form'}, every service its own process: ${ROUNDS} round(s) of ` +
      `B alone then B under A's flood, ${N} calls of each of B's kinds per phase, ${SAMPLES} per condition; ` +
      `A in ${FLOOD_LOOPS} loops; 1-minute load average ${load.join(' → ')}; p99 is nearest-rank, ` +
      `so of ${SAMPLES} calls it is the ${SAMPLES < 100 ? 'slowest' : `${Math.ceil(0.99 * SAMPLES)}th`})`,
    '',
    "| B's call | alone p50 | alone p99 | flood p50 | flood p99 | p99 ratio | flood statuses |",
    '|---|---|---|---|---|---|---|',
  ];
  for (const kind of KINDS_B) {
    const x = alone.filter((c) => c.kind === kind).map((c) => c.ms);
    const y = flood.filter((c) => c.kind === kind).map((c) => c.ms);
    const statuses = countBy(flood.filter((c) => c.kind === kind).map((c) => c.status));
    lines.push(
      `| ${kind} | ${ms(percentile(x, 50))} ms | ${ms(percentile(x, 99))} ms | ${ms(percentile(y, 50))} ms | ` +
        `${ms(percentile(y, 99))} ms | ${(percentile(y, 99) / percentile(x, 99)).toFixed(2)}× | ${statuses} |`,
    );
  }
  lines.push(
    '',
    "| A's call | sent | answered 200 | refused (or timed out), by status |",
    '|---|---|---|---|',
  );
  for (const kind of KINDS_A) {
    const mine = a.filter((c) => c.kind === kind);
    const refused = countBy(mine.filter((c) => c.status !== 200).map((c) => c.status));
    lines.push(
      `| ${kind} | ${mine.length} | ${mine.filter((c) => c.status === 200).length} | ${refused || '-'} |`,
    );
  }
  return lines.join('\n');
}

const countBy = (statuses: number[]) =>
  [...new Set(statuses)]
    .sort()
    .map((s) => `${s === 0 ? 'reset' : s}: ${statuses.filter((x) => x === s).length}`)
    .join(', ');

/**
 * A's answer to `path`, once the rules service answers A again: right after the flood
 * it may still be busy with the work of A's calls that timed out (A's wait, not B's).
 */
const readA = (path: string) =>
  until(
    () => stack.api(path, { token: stack.token(SHOP_A) }),
    (r) => r.status === 200,
    `A's ${path}`,
    30_000,
  );

/**
 * The tag (first filter's name) of what a ruleset of A stores, once it holds still: a
 * write sent before its caller's deadline completes after the answer, so two reads a
 * second apart must agree.
 */
async function storedTag(path: string): Promise<string | undefined> {
  const read = async () => ((await readA(path)).body.rules as { name: string }[])[0]?.name;
  let tag = await read();
  for (let i = 0; i < 10; i++) {
    await new Promise((r) => setTimeout(r, 1000));
    const again = await read();
    if (again === tag) return tag;
    tag = again;
  }
  throw new Error(`${path} still changes 10 s after the flood`);
}

/**
 * What a ruleset stores after the flood must be the body of an accepted call no
 * other accepted call followed (started after it was answered), or, if none was
 * accepted, what was there before; never a refused call's. A call that timed out
 * (5xx) may have been applied all the same (docs/architecture.md, "Deadlines on
 * the bus": a write sent just before the deadline completes), so it may be the one.
 */
function expectLastAccepted(
  calls: CallA[],
  stored: string | undefined,
  before: string | undefined,
): void {
  const accepted = calls.filter((c) => c.status === 200);
  const storer = calls.find((c) => c.tag === stored);
  if (!storer) {
    expect([stored, accepted.length]).toEqual([before, 0]);
    return;
  }
  if (storer.status >= 500) return;
  expect([storer.kind, storer.status]).toEqual([storer.kind, 200]);
  const later = accepted.filter((c) => c.started > storer.ended).map((c) => c.tag);
  expect(later).toEqual([]);
}

// ---------------------------------------------------------------- the test

it(
  "B's reads, saves and callbacks are answered, and answered right, while A floods every expensive route",
  async () => {
    const load = [loadavg()[0]!.toFixed(2)];
    const beforeSave = await storedTag(`/api/global-rules/rules?globalRuleId=${floodRulesetA}`);
    const list = await stack.api('/api/global-rules', { token: stack.token(SHOP_A) });
    expect(list.status).toBe(200);
    const alone: CallB[] = [];
    const during: CallB[] = [];
    const a: CallA[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      if (round > 1) await new Promise((r) => setTimeout(r, SETTLE_MS));
      alone.push(...(await runB(`alone ${round}`)));
      load.push(loadavg()[0]!.toFixed(2));
      let finished!: () => void;
      const bDone = new Promise<void>((resolve) => (finished = resolve));
      const floodCalls = floodA(round, bDone);
      // The flood is under way before B's first call.
      await new Promise((r) => setTimeout(r, 500));
      during.push(...(await runB(`flood ${round}`).finally(finished)));
      a.push(...(await floodCalls));
      load.push(loadavg()[0]!.toFixed(2));
    }

    process.stdout.write(`${table(alone, during, a, load)}\n`);

    // The three lanes ran, each on one thread at its lower priority beside the others'
    // default (read at once: they stop after 60 s without work), and A's large snapshots
    // were decoded. On a machine other suites share, the
    // starved lane leaves some of them to the checkout's thread after 2 s, as designed;
    // the long form, on a quiet machine, requires it took them all.
    for (const service of ['gateway', 'rules', 'rate-engine'] as const) {
      const priorities = stack.threadPriorities(service);
      expect([service, priorities.filter((nice) => nice === LANE_NICE)]).toEqual([
        service,
        [LANE_NICE],
      ]);
      expect(priorities.filter((nice) => nice !== LANE_NICE && nice !== 0)).toEqual([]);
      // It answered A's heavy calls (B's saves of 3 filters stay on the service's thread).
      const answered = await stack.metrics(service, 'ratesmith_lane_requests');
      const onLane = answered.find((m) => m.labels.where === 'lane')?.value ?? 0;
      expect([service, onLane > 0]).toEqual([service, true]);
    }
    const decodes = await stack.metrics('rate-engine', 'ratesmith_snapshot_large_decodes');
    const decodedWhere = (where: string) =>
      decodes.find((m) => m.labels.where === where)?.value ?? 0;
    expect(decodedWhere('lane') + decodedWhere('inline')).toBeGreaterThan(0);
    if (FULL) expect([decodedWhere('lane') > 0, decodedWhere('inline')]).toEqual([true, 0]);

    // B alone works, or the comparison means nothing.
    expect(alone.filter((c) => c.status !== 200 || c.wrong)).toEqual([]);
    // The flood really ran: each of A's kinds was sent.
    for (const kind of KINDS_A) expect(a.filter((c) => c.kind === kind).length).toBeGreaterThan(0);
    // During the flood: no 5xx (no 503) for B, and every answer is the right one.
    expect(during.filter((c) => c.status >= 500)).toEqual([]);
    expect(during.filter((c) => c.status !== 200 || c.wrong)).toEqual([]);

    // A's refused work left no trace: its flooded ruleset holds its last accepted Save All.
    const saves = a.filter((c) => c.kind.startsWith('save all'));
    expectLastAccepted(
      saves,
      await storedTag(`/api/global-rules/rules?globalRuleId=${floodRulesetA}`),
      beforeSave,
    );
    const after = await readA('/api/global-rules');
    const rulesetsA = after.body.globalRules as { id: string; name: string }[];
    // No ruleset of a refused import; the imported one holds the last accepted import.
    expect(rulesetsA.filter((r) => r.name.includes('refused'))).toEqual([]);
    const imports = a.filter((c) => c.kind.startsWith('import'));
    const imported = rulesetsA.find((r) => r.name === 'Alpha imported');
    expectLastAccepted(
      imports,
      imported ? await storedTag(`/api/global-rules/rules?globalRuleId=${imported.id}`) : undefined,
      // Before the flood A had no such ruleset.
      undefined,
    );
    expect(rulesetsA.length).toBe((list.body.globalRules as unknown[]).length + (imported ? 1 : 0));

    // A's hostile and unsigned callbacks are not A's checkouts: after three genuine ones,
    // A's analytics count exactly those and rateKeyOf's, through two more flushes.
    for (let k = 0; k < 3; k++) {
      const body = JSON.stringify({ rate: cart() });
      const res = await raw(`${stack.carrierUrl}/carrier/rates/${keyA}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-shopify-hmac-sha256': signBody(body, stack.secret),
        },
        body,
      });
      expect(res.status).toBe(200);
      countedA++;
    }
    const checkoutsA = async () => (await readA('/api/analytics')).body.checkouts as number;
    await until(checkoutsA, (n) => n >= countedA, "A's genuine callbacks in its analytics", 20_000);
    await new Promise((r) => setTimeout(r, 2500));
    expect(await checkoutsA()).toBe(countedA);

    if (FULL) {
      // The issue's goals, asserted only in the long form (the default suite runs on shared machines).
      const ratios = (['list rulesets', 'get ruleset', 'signed callback'] as const).map(
        (kind) => [kind, p99(during, kind) / p99(alone, kind)] as const,
      );
      expect(ratios.filter(([, ratio]) => ratio > GOAL)).toEqual([]);
    }
  },
  FULL ? 1_800_000 : 120_000,
);
