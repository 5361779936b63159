import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Connection } from '@ratesmith/kit';
import { appliedRedactions } from '../../src/cluster-run';
import { adminClient, flatFeeFilter, startFaultStack, type FaultStack } from '../../src/faults';
import { openRulesDb, openServiceDb, retried, saveFee } from '../../src/faults/writes';
import { repoRoot } from '../../src/servers';

/**
 * Duplicates give one effect, on processes (built services, real NATS and
 * FerretDB, the Shopify double):
 * - R15: signed webhooks at a steady rate, 20 % delivered twice with the
 *   same X-Shopify-Webhook-Id, in shuffled order: each shop uninstalled and
 *   redacted once, the final state equal to the model.
 * - shop/redact sent again under a new webhook id: auth acts again, but the
 *   ShopRedacted event carries the same id, so rules applies it once.
 * - A Save All retried with the same body: one stored state, one snapshot
 *   version per distinct change.
 * - A ShopRedacted event whose handler crashed before its acknowledgement
 *   (rules killed after the first deletes): JetStream redelivers it after
 *   the consumer's ack wait (30 s) and the restarted rules completes it once.
 * - R16: 50 concurrent product lists (gateway, catalog, auth) on an expired
 *   token: one refresh at the double; auth killed in the middle of a
 *   refresh: after its restart the next call works (no lockout).
 * The gateway's own webhook tests (services/gateway/test/webhooks.int.spec.ts)
 * and auth's in-process refresh tests (services/auth/test/access-token.int.spec.ts)
 * cover the single cases; these run them at a rate and across processes.
 * FAULTS_FULL=1 runs more shops and more crash rounds.
 */
const FULL = process.env.FAULTS_FULL === '1';
const WEBHOOK_SHOPS = FULL ? 60 : 8;
const REFRESH_CRASH_ROUNDS = FULL ? 20 : 1;
const WEBHOOK_RATE_PER_S = 20;
const webhookShop = (i: number) => `idem-hook-${i + 1}.myshopify.com`;
const KEEP_SHOP = 'idem-keep.myshopify.com';
const SAVE_SHOP = 'idem-save.myshopify.com';
const TOKEN_SHOP = 'idem-token.myshopify.com';
const REDELIVER_SHOP = 'idem-redeliver.myshopify.com';
const SHOPS = [
  ...Array.from({ length: WEBHOOK_SHOPS }, (_, i) => webhookShop(i)),
  KEEP_SHOP,
  SAVE_SHOP,
  TOKEN_SHOP,
];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let stack: FaultStack | undefined;
let rulesDb: Awaited<ReturnType<typeof openRulesDb>>;
let authDb: Connection | undefined;
const rulesetIds = new Map<string, string>();

beforeAll(async () => {
  for (const service of ['auth', 'rules', 'catalog', 'rate-engine', 'gateway'])
    if (!existsSync(join(repoRoot, 'services', service, 'dist', 'main.js')))
      throw new Error(`services/${service} is not built: run \`npm run build\` (npm test does)`);
  stack = await startFaultStack({ demoShops: [...SHOPS, REDELIVER_SHOP] });
  rulesDb = await openRulesDb(stack.mongo.url);
  authDb = await openServiceDb(stack.mongo.url, 'ratesmith_auth');
  // Every shop installed (its first admin call) with one ruleset.
  for (const shop of SHOPS) {
    const api = adminClient(stack.gatewayUrl, shop);
    const id = await retried(async () => {
      if ((await api('/api/global-rules')).status !== 200) throw new Error(`${shop} not installed`);
      const created = await api('/api/global-rules', { body: { name: 'Kept' } });
      if (typeof created.body?.rule?.id !== 'string') throw new Error(`no ruleset for ${shop}`);
      return created.body.rule.id as string;
    });
    rulesetIds.set(shop, id);
  }
}, 150_000);

afterAll(async () => {
  await rulesDb?.close();
  await authDb?.close();
  await stack?.stop();
});

const rulesetCount = (shop: string) => rulesDb.rulesetCount(shop);
const tokenCount = (shops: string[]) =>
  authDb!.db!.collection('tokens').countDocuments({ shop: { $in: shops } });
/** How many times a service logged `msg` for the shop. */
function logCount(log: string, msg: string, shop: string): number {
  let count = 0;
  for (const line of log.split('\n')) {
    if (!line.includes(msg)) continue;
    try {
      const entry = JSON.parse(line) as { msg?: string; shop?: string };
      if (entry.msg === msg && entry.shop === shop) count++;
    } catch {
      // not a log line of the service
    }
  }
  return count;
}

interface Delivery {
  topic: string;
  shop: string;
  webhookId: string;
}

it(
  `R15: ${WEBHOOK_SHOPS} shops uninstalled and redacted by webhooks at ${WEBHOOK_RATE_PER_S}/s, 20 % duplicates, shuffled: each acts once, the state equals the model`,
  async () => {
    const s = stack!;
    const deliveries: Delivery[] = [];
    for (let i = 0; i < WEBHOOK_SHOPS; i++) {
      const shop = webhookShop(i);
      s.double.uninstall(shop);
      for (const topic of ['app/uninstalled', 'shop/redact'])
        deliveries.push({ topic, shop, webhookId: `${topic}-${shop}` });
    }
    // The kept shop gets a compliance webhook that changes nothing.
    deliveries.push({ topic: 'customers/data_request', shop: KEEP_SHOP, webhookId: 'keep-data' });
    const duplicates = deliveries.filter((_, i) => i % 5 === 0);
    // shop/redact sent again under a new webhook id (Shopify's later resend): auth acts again,
    // the event it publishes carries the same id, so JetStream keeps one and rules applies one.
    const resent = deliveries
      .filter((d) => d.topic === 'shop/redact')
      .slice(0, 2)
      .map((d) => ({ ...d, webhookId: `${d.webhookId}-resent` }));
    const all = [...deliveries, ...duplicates, ...resent];
    for (let i = all.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [all[i], all[j]] = [all[j]!, all[i]!];
    }
    const answers: { status: number; ms: number }[] = [];
    let retries = 0;
    const unacknowledged: Delivery[] = [];
    /** As Shopify delivers: a non-2xx answer is retried with the same id (here every 0.5 s, 60 s at most). */
    async function deliver(d: Delivery): Promise<void> {
      const deadline = Date.now() + 60_000;
      for (let attempt = 0; ; attempt++) {
        const from = Date.now();
        const status = await s.double
          .sendWebhook(`${s.gatewayUrl}/webhooks/${d.topic}`, d.topic, d.shop, undefined, {
            webhookId: d.webhookId,
          })
          .then((r) => r.status)
          .catch(() => 0);
        if (attempt === 0) answers.push({ status, ms: Date.now() - from });
        if (status === 200) return;
        if (Date.now() > deadline) return void unacknowledged.push(d);
        retries++;
        await sleep(500);
      }
    }
    const sent: Promise<void>[] = [];
    for (const d of all) {
      sent.push(deliver(d));
      await sleep(1000 / WEBHOOK_RATE_PER_S);
    }
    await Promise.all(sent);

    // The model: every hook shop's rulesets and tokens gone, the kept shop untouched.
    const hookShops = Array.from({ length: WEBHOOK_SHOPS }, (_, i) => webhookShop(i));
    const deadline = Date.now() + 30_000;
    let left = -1;
    while (Date.now() < deadline) {
      left = 0;
      for (const shop of hookShops) left += await rulesetCount(shop);
      // The rules service logs a redaction once all its collections are done, after the rulesets.
      const logged = s.service('rules').logText();
      if (left === 0 && hookShops.every((shop) => appliedRedactions(logged, shop) > 0)) break;
      await sleep(250);
    }
    const authLog = s.service('auth').logText();
    const rulesLog = s.service('rules').logText();
    const resentShops = new Set(resent.map((d) => d.shop));
    const wrong = hookShops
      .map((shop) => ({
        shop,
        uninstalled: logCount(authLog, 'shop uninstalled; tokens deleted', shop),
        redactedInAuth: logCount(authLog, 'shop redacted here; other services told', shop),
        redactedInRules: appliedRedactions(rulesLog, shop),
      }))
      .filter(
        (e) =>
          e.uninstalled !== 1 ||
          e.redactedInAuth !== (resentShops.has(e.shop) ? 2 : 1) ||
          e.redactedInRules !== 1,
      );
    const ms = answers.map((a) => a.ms).sort((a, b) => a - b);
    const p99 = ms[Math.min(ms.length - 1, Math.floor(ms.length * 0.99))]!;
    const statuses: Record<string, number> = {};
    for (const a of answers) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
    console.log(
      `R15 webhooks: ${JSON.stringify({
        deliveries: all.length,
        duplicates: duplicates.length,
        resentUnderNewId: resent.length,
        firstAnswers: statuses,
        retries,
        ackMs: { p50: ms[Math.floor(ms.length / 2)], p99, max: ms.at(-1) },
        rulesetsLeft: left,
      })}`,
    );
    // Every delivery was acknowledged in the end (a 503 under load is retried, as Shopify does).
    expect(unacknowledged).toEqual([]);
    expect(left).toBe(0);
    expect(wrong).toEqual([]);
    expect(await rulesetCount(KEEP_SHOP)).toBe(1);
    expect(await tokenCount(hookShops)).toBe(0);
    expect(await tokenCount([KEEP_SHOP])).toBe(1);
    // R15's goal is p99 ≤ 1 s; npm test shares two cores with other stacks, so only the full run holds it.
    expect(p99).toBeLessThanOrEqual(FULL ? 1000 : 5000);
  },
  FULL ? 600_000 : 120_000,
);

it('a Save All retried with the same body: one stored state, at most one new snapshot version', async () => {
  const api = adminClient(stack!.gatewayUrl, SAVE_SHOP);
  const id = rulesetIds.get(SAVE_SHOP)!;
  expect((await api(`/api/global-rules/${id}/toggle`)).body.message).toBe('Ruleset enabled.');
  // The editor's list: it makes the ids of filters, groups and conditions itself.
  const filter = flatFeeFilter(7);
  const body = {
    rules: [
      {
        ...filter,
        id: 'f-retried',
        raw_query: {
          ...filter.raw_query,
          id: 'g-retried',
          rules: filter.raw_query.rules.map((rule) => ({ ...rule, id: 'c-retried' })),
        },
      },
    ],
  };
  const path = `/api/global-rules/update/${id}`;
  const before = await rulesDb.snapshotVersion(SAVE_SHOP);
  const first = await api(path, { body });
  const retry = await api(path, { body });
  const after = await rulesDb.snapshotVersion(SAVE_SHOP);
  console.log(
    `retried Save All: ${JSON.stringify({ versionBefore: before, versionAfter: after })}`,
  );
  expect([first.status, retry.status]).toEqual([200, 200]);
  expect(retry.body.rules).toEqual(first.body.rules);
  expect(await rulesDb.storedFee(SAVE_SHOP, id)).toBe(7);
  expect(await rulesDb.rulesetCount(SAVE_SHOP)).toBe(1);
  expect(after - before).toBe(1);
  // A different list is a change again.
  expect((await saveFee(api, id, 8)).acknowledged).toBe(true);
  expect(await rulesDb.snapshotVersion(SAVE_SHOP)).toBe(after + 1);
}, 60_000);

it('a ShopRedacted event whose handler crashed before its ack is redelivered and completed once', async () => {
  const s = stack!;
  const rules = s.service('rules');
  const api = adminClient(s.gatewayUrl, REDELIVER_SHOP);
  await retried(async () => {
    if ((await api('/api/global-rules')).status !== 200) throw new Error('not installed');
  });
  for (const name of ['One', 'Two', 'Three'])
    expect((await api('/api/global-rules', { body: { name } })).status).toBe(200);
  s.double.uninstall(REDELIVER_SHOP);
  for (const topic of ['app/uninstalled', 'shop/redact'])
    expect(
      (await s.double.sendWebhook(`${s.gatewayUrl}/webhooks/${topic}`, topic, REDELIVER_SHOP))
        .status,
    ).toBe(200);
  // MongoDB slowed (250 ms each way): the handler's deletes after the rulesets' (nine
  // collections, one at a time) take long enough to stop it midway even on a loaded machine,
  // where 100 ms each way left too little (the whole suite's run saw it finish first).
  s.mongoProxy.setMode('delay', 250);
  const deadline = Date.now() + 20_000;
  while ((await rulesetCount(REDELIVER_SHOP)) > 0) {
    if (Date.now() > deadline) throw new Error('the redaction never started');
    await sleep(2);
  }
  s.freeze('rules');
  const completedBeforeCrash = appliedRedactions(rules.logText(), REDELIVER_SHOP);
  s.mongoProxy.setMode('pass');
  await rules.kill();
  rules.start();
  await rules.waitReady(60_000);
  // Redelivered once the ack wait (30 s) of the first delivery has passed.
  const until = Date.now() + 60_000;
  while (Date.now() < until && appliedRedactions(rules.logText(), REDELIVER_SHOP) === 0) {
    await sleep(500);
  }
  await sleep(2000);
  expect({
    completedBeforeCrash,
    completed: appliedRedactions(rules.logText(), REDELIVER_SHOP),
    rulesets: await rulesetCount(REDELIVER_SHOP),
  }).toEqual({ completedBeforeCrash: 0, completed: 1, rulesets: 0 });
}, 150_000);

describe('R16: the offline token', () => {
  /** One product page through the gateway and catalog: auth runs the query with the shop's token. */
  const products = () =>
    adminClient(stack!.gatewayUrl, TOKEN_SHOP, 20_000)('/api/product-rules/shopify-products');

  /** The shop's access token expired at the double and in auth's record. */
  async function expireToken(): Promise<void> {
    stack!.double.oauth.expireAccessTokens(TOKEN_SHOP);
    await authDb!
      .db!.collection('tokens')
      .updateOne({ shop: TOKEN_SHOP }, { $set: { expires_at: new Date(Date.now() - 1000) } });
  }

  it('50 concurrent callers on an expired token: one refresh at the double, every call answered', async () => {
    expect((await products()).status).toBe(200);
    await expireToken();
    const refreshes = stack!.double.oauth.stats.refreshes;
    const answers = await Promise.all(Array.from({ length: 50 }, () => products()));
    const refreshed = stack!.double.oauth.stats.refreshes - refreshes;
    const outcomes: Record<string, number> = {};
    for (const a of answers) {
      const key = a.status === 200 ? '200' : `${a.status} ${String(a.body.message)}`;
      outcomes[key] = (outcomes[key] ?? 0) + 1;
    }
    console.log(`R16 concurrent refresh: ${JSON.stringify({ callers: 50, refreshed, outcomes })}`);
    expect(refreshed).toBe(1);
    // Nobody was told to reconnect the shop; a caller not served said "try again" (503 +
    // Retry-After): 50 product pages at once also meet Shopify's query-cost bucket.
    expect(answers.filter((a) => a.status !== 200 && (a.status !== 503 || !a.retryAfter))).toEqual(
      [],
    );
    expect(answers.filter((a) => a.status === 200).length).toBeGreaterThan(0);
    expect((await products()).status).toBe(200);
  }, 60_000);

  it(
    `auth killed during a refresh (${REFRESH_CRASH_ROUNDS} rounds at random points): after its restart the next call works`,
    async () => {
      const auth = stack!.service('auth');
      const rounds: { killAfterMs: number; refreshed: number; recoveredMs?: number }[] = [];
      for (let i = 0; i < REFRESH_CRASH_ROUNDS; i++) {
        await expireToken();
        const refreshes = stack!.double.oauth.stats.refreshes;
        const callers = Promise.all(Array.from({ length: 50 }, () => products()));
        const killAfterMs = Math.random() * 150;
        await sleep(killAfterMs);
        await auth.kill();
        await callers;
        auth.start();
        await auth.waitReady(60_000);
        const from = Date.now();
        let ok = false;
        // The refresh lease of the killed process (15 s) may have to run out first.
        while (Date.now() - from < 40_000 && !(ok = (await products()).status === 200))
          await sleep(500);
        rounds.push({
          killAfterMs: Math.round(killAfterMs),
          refreshed: stack!.double.oauth.stats.refreshes - refreshes,
          recoveredMs: ok ? Date.now() - from : undefined,
        });
      }
      console.log(`R16 auth killed mid-refresh: ${JSON.stringify(rounds)}`);
      expect(rounds.filter((r) => r.recoveredMs === undefined)).toEqual([]);
    },
    FULL ? 1_800_000 : 150_000,
  );
});
