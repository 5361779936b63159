import { LIMITS } from '@ratesmith/contracts';
import { SHOP_CHANGE_RUNNING } from '../../rules/src/domain/shop-lease';
import { startStack, type Stack } from './harness';

/**
 * The per-shop limits hold however many calls come at once: the rules service
 * counts and writes under the shop's lease in MongoDB
 * (services/rules/src/domain/shop-lease.ts), so neither creates nor imports
 * at once can pass a count that each checked alone. Before the lease, 60
 * creates at once made 62 rulesets and 4 imports 83, against 50.
 */
let stack: Stack;
beforeAll(async () => {
  // Four imports at once must reach the rules service: the gateway's own bound on a
  // shop's heavy calls (2 by default) would refuse two of them first.
  stack = await startStack({ HEAVY_CALLS_PER_SHOP: '8', NATS_REQUEST_TIMEOUT_MS: '20000' });
}, 120_000);
afterAll(() => stack?.stop(), 120_000);

const FULL = `A shop can have at most ${LIMITS.rulesetsPerShop} rulesets: delete one you no longer use first.`;

async function rulesetNames(shop: string): Promise<string[]> {
  const list = await stack.api('/api/global-rules', { token: stack.token(shop) });
  expect(list.status).toBe(200);
  return (list.body.globalRules as { name: string }[]).map((r) => r.name);
}

it('60 creates at once make at most 50 rulesets; each refusal says why', async () => {
  const shop = 'race-creates.myshopify.com';
  const answers = await Promise.all(
    Array.from({ length: 60 }, (_, n) =>
      stack.api('/api/global-rules', {
        method: 'POST',
        token: stack.token(shop),
        json: { name: `Race ${n}` },
      }),
    ),
  );
  const created = answers.filter((a) => a.status === 200);
  const refused = answers.filter((a) => a.status !== 200);
  // Every refusal is the limit or the lease's wait running out, in words.
  for (const answer of refused)
    expect([answer.status, answer.body.message]).toEqual(
      answer.status === 400 ? [400, FULL] : [409, SHOP_CHANGE_RUNNING],
    );
  const names = await rulesetNames(shop);
  expect(names).toHaveLength(created.length);
  expect(created.length).toBeLessThanOrEqual(LIMITS.rulesetsPerShop);
  // Most of them waited their turn rather than being turned away.
  expect(created.length).toBeGreaterThanOrEqual(40);
}, 120_000);

it('4 imports of 30 new rulesets at once: at most one lands, whole, and the others say why', async () => {
  const shop = 'race-imports.myshopify.com';
  const exported = await stack.api('/api/config/export', { token: stack.token(shop) });
  expect(exported.status).toBe(200);
  const file = (k: number) => ({
    ...exported.body,
    rulesets: Array.from({ length: 30 }, (_, n) => ({
      name: `Import ${k} ruleset ${n}`,
      enabled: false,
      filters: [],
    })),
  });
  const answers = await Promise.all(
    [0, 1, 2, 3].map((k) =>
      stack.api('/api/config/import', {
        method: 'POST',
        token: stack.token(shop),
        json: file(k),
      }),
    ),
  );
  const applied = answers.filter((a) => a.status === 200);
  expect(applied.length).toBeLessThanOrEqual(1);
  for (const answer of answers.filter((a) => a.status !== 200)) {
    expect([400, 409]).toContain(answer.status);
    expect(JSON.stringify(answer.body)).toMatch(
      /more than the 50 a shop can have|still being saved/,
    );
  }
  const names = await rulesetNames(shop);
  expect(names.length).toBe(30 * applied.length);
  // The one that landed is whole: its 30 rulesets, none of another file's.
  const files = new Set(names.map((name) => name.split(' ruleset ')[0]));
  expect(files.size).toBe(applied.length);
}, 120_000);

it("a lease its holder never gave back holds the shop's creates until it lapses, then no longer", async () => {
  const shop = 'race-lapsed.myshopify.com';
  const leases = stack.dbs.rules.db!.collection('shop_leases');
  const create = () =>
    stack.api('/api/global-rules', {
      method: 'POST',
      token: stack.token(shop),
      json: { name: 'After the lease' },
    });
  // A replica died holding the lease, a minute ago, for two minutes.
  await leases.insertOne({ shop, owner: 'a replica gone', until: new Date(Date.now() + 60_000) });
  const held = await create();
  expect([held.status, held.body.message]).toEqual([409, SHOP_CHANGE_RUNNING]);
  expect(await rulesetNames(shop)).toEqual([]);
  // Its time is up: the next create takes the lease over, and gives it back.
  await leases.updateOne({ shop }, { $set: { until: new Date(Date.now() - 1) } });
  const taken = await create();
  expect(taken.status).toBe(200);
  expect(await rulesetNames(shop)).toEqual(['After the lease']);
  expect(await leases.countDocuments({ shop })).toBe(0);
}, 120_000);

describe('a create sent again with its Idempotency-Key', () => {
  const create = (shop: string, key: string | undefined, name = 'Once') =>
    stack.api('/api/global-rules', {
      method: 'POST',
      token: stack.token(shop),
      json: { name },
      headers: key === undefined ? {} : { 'idempotency-key': key },
    });

  it('answers the ruleset the first one made, at once or later, and makes one', async () => {
    const shop = 'once-creates.myshopify.com';
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => create(shop, 'key-once-0001')));
    const made = answers.filter((a) => a.status === 200);
    // The ones that came while the first ran say so; every other answer names its ruleset.
    for (const answer of answers.filter((a) => a.status !== 200))
      expect([answer.status, answer.body.message]).toEqual([
        409,
        'This ruleset is still being created. Please wait a moment and reload the page.',
      ]);
    expect(new Set(made.map((a) => a.body.rule.id)).size).toBe(1);
    const again = await create(shop, 'key-once-0001');
    expect([again.status, again.body.rule.id]).toEqual([200, made[0]!.body.rule.id]);
    expect(await rulesetNames(shop)).toEqual(['Once']);
    // Another key, or none, is another create.
    expect((await create(shop, 'key-once-0002')).status).toBe(200);
    expect((await create(shop, undefined)).status).toBe(200);
    expect(await rulesetNames(shop)).toHaveLength(3);
  }, 120_000);

  it('lets a key whose create was refused try again', async () => {
    const shop = 'once-full.myshopify.com';
    for (let n = 0; n < LIMITS.rulesetsPerShop; n++)
      expect((await create(shop, undefined, `Full ${n}`)).status).toBe(200);
    const refused = await create(shop, 'key-full-0001', 'Past the limit');
    expect([refused.status, refused.body.message]).toEqual([400, FULL]);
    const list = await stack.api('/api/global-rules', { token: stack.token(shop) });
    const first = (list.body.globalRules as { id: string }[])[0]!.id;
    const deleted = await stack.api(`/api/global-rules/${first}`, {
      method: 'DELETE',
      token: stack.token(shop),
    });
    expect(deleted.status).toBe(200);
    const retried = await create(shop, 'key-full-0001', 'Past the limit');
    expect(retried.status).toBe(200);
    expect(await rulesetNames(shop)).toContain('Past the limit');
  }, 120_000);

  it('copies once per key, and refuses a malformed key', async () => {
    const shop = 'once-copies.myshopify.com';
    const source = (await create(shop, undefined, 'Source')).body.rule.id as string;
    const copy = (key: string) =>
      stack.api(`/api/global-rules/${source}/duplicate`, {
        method: 'POST',
        token: stack.token(shop),
        headers: { 'idempotency-key': key },
      });
    const [first, second] = [await copy('key-copy-0001'), await copy('key-copy-0001')];
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.body.rule.id).toBe(first.body.rule.id);
    expect((await rulesetNames(shop)).sort()).toEqual(['Copy of Source', 'Source']);
    const bad = await copy('no spaces!');
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual(['idempotency-key: must be 8 to 64 letters, digits, - or _']);
  }, 120_000);
});
