import { rulesV1, type Snapshot } from '@ratesmith/contracts';
import { sentFilter } from '@ratesmith/contracts/testing';
import { createLogger, RpcClient } from '@ratesmith/kit';
import { createRepositories } from '../../rules/src/data/repositories';
import { SnapshotPublisher } from '../../rules/src/snapshots/publisher';
import { SHOP_C, startStack, until, type Stack } from './harness';

/**
 * Two rules replicas on FerretDB can take the same snapshot version: its
 * $inc is not atomic under concurrency (services/rules/src/snapshots/publisher.ts).
 * Played here by putting in the bucket what the other replica would: the
 * shop's snapshot from before a change, under the version the change's
 * publish is about to take. The change must still reach the bucket.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

const token = () => stack.token(SHOP_C);

async function snapshotOf(shop: string): Promise<Snapshot | undefined> {
  const entry = await stack.kv.get(shop);
  return entry && entry.length ? (entry.json() as Snapshot) : undefined;
}

const feeOf = (snapshot: Snapshot | undefined) =>
  (snapshot?.globalRuleset?.filters[0] as { action_data?: number } | undefined)?.action_data;

async function saveFee(id: string, dollars: number): Promise<void> {
  const saved = await stack.api(`/api/global-rules/update/${id}`, {
    method: 'POST',
    token: token(),
    json: { rules: [sentFilter({ name: 'Flat', action_type: 1, action_data: dollars })] },
  });
  expect(saved.status).toBe(200);
}

it('a change whose version the bucket already holds (an older build) is published again past it', async () => {
  const created = await stack.api('/api/global-rules', {
    method: 'POST',
    token: token(),
    json: { name: 'Versions' },
  });
  const id = created.body.rule.id as string;
  await saveFee(id, 1);
  await stack.api(`/api/global-rules/${id}/toggle`, { token: token() });
  const before = (await until(
    () => snapshotOf(SHOP_C),
    (s) => feeOf(s) === 1,
    'the first fee in the bucket',
  ))!;
  // The other replica's build from before the change, under the next version.
  const counter = await stack.dbs.rules
    .db!.collection('snapshot_versions')
    .findOne({ shop: SHOP_C });
  await stack.kv.put(
    SHOP_C,
    JSON.stringify({ ...before, version: (counter!.version as number) + 1 }),
  );

  await saveFee(id, 2);
  const after = (await until(
    () => snapshotOf(SHOP_C),
    (s) => feeOf(s) === 2,
    'the saved fee in the bucket',
  ))!;
  expect(after.version).toBeGreaterThan((counter!.version as number) + 1);
});

describe("a change built from the bucket's previous snapshot", () => {
  const shop = SHOP_C;
  let rulesetId: string;
  let productRuleIds: string[];
  /** The snapshot as a build from MongoDB makes it, every part read. */
  let readWhole: () => Promise<Snapshot>;

  const content = (snapshot: Snapshot) => ({ ...snapshot, version: 0, traceparent: undefined });
  const bucketAfter = async (version: number) =>
    (await until(
      () => snapshotOf(shop),
      (s) => (s?.version ?? 0) > version,
      'the next snapshot in the bucket',
    ))!;

  beforeAll(async () => {
    const rules = new RpcClient(stack.nc, rulesV1.RulesService, {
      timeoutMs: 5000,
      subjectPrefix: stack.servers.subjectPrefix,
      displayName: 'rules',
    });
    const { added } = await rules.call('addProductRules', {
      shop,
      products: ['8101', '8102', '8103'].map((productId) => ({
        productId,
        name: `Product ${productId}`,
        image: '',
        variants: [{ id: `${productId}1`, title: 'Default', price: '5.00' }],
      })),
    });
    productRuleIds = added.map((rule) => rule.id);
    const created = await stack.api('/api/global-rules', {
      method: 'POST',
      token: token(),
      json: { name: 'Patched' },
    });
    rulesetId = created.body.rule.id as string;
    await stack.api(`/api/global-rules/${rulesetId}/toggle`, { token: token() });
    const repos = createRepositories(stack.dbs.rules);
    const builder = new SnapshotPublisher({
      ...repos,
      kv: stack.kv,
      nc: stack.nc,
      logger: createLogger('test', 'silent'),
      subjectPrefix: stack.servers.subjectPrefix,
    });
    readWhole = () => builder.build(shop, 0);
  });

  const changes: [string, () => Promise<{ status: number }>][] = [
    ['a Save All of the active ruleset', () => saveFee(rulesetId, 7).then(() => ({ status: 200 }))],
    [
      "a product rule's filters",
      () =>
        stack.api(`/api/product-rules/update/${productRuleIds[1]}`, {
          method: 'POST',
          token: token(),
          json: { rules: [sentFilter({ name: 'Heavy', action_type: 1, action_data: 4 })] },
        }),
    ],
    [
      'a product rule switched off',
      () => stack.api(`/api/product-rules/${productRuleIds[2]}/toggle`, { token: token() }),
    ],
    [
      'the settings',
      () =>
        stack.api('/api/settings', {
          method: 'POST',
          token: token(),
          json: { carrier_name: 'Patched carrier', carrier_description: 'From the bucket' },
        }),
    ],
  ];

  it.each(changes)('%s: the same snapshot as one read whole from MongoDB', async (_, change) => {
    const before = (await snapshotOf(shop))?.version ?? 0;
    expect((await change()).status).toBe(200);
    const published = await bucketAfter(before);
    expect(content(published)).toEqual(content(await readWhole()));
  });

  it("keeps the previous snapshot's other parts as the bucket holds them (nothing else is read)", async () => {
    const counter = await stack.dbs.rules.db!.collection('snapshot_versions').findOne({ shop });
    const current = (await snapshotOf(shop))!;
    // The bucket's snapshot of the version before the next one, with a mark in a part
    // the next change does not touch: a build from MongoDB would not have it.
    const marked = { ...current, version: counter!.version as number, rateKey: 'from-the-bucket' };
    await stack.kv.put(shop, JSON.stringify(marked));
    expect((await changes[1]![1]()).status).toBe(200);
    const published = await bucketAfter(marked.version);
    expect(published.rateKey).toBe('from-the-bucket');
    expect(published.productRules).toEqual((await readWhole()).productRules);
  });

  it('reads MongoDB whole when the bucket does not hold the version just before', async () => {
    const counter = await stack.dbs.rules.db!.collection('snapshot_versions').findOne({ shop });
    const current = (await snapshotOf(shop))!;
    // A publish in between did not land (say NATS refused it): the bucket is two behind.
    const behind = { ...current, version: (counter!.version as number) - 1, rateKey: 'stale' };
    await stack.kv.put(shop, JSON.stringify(behind));
    expect((await changes[3]![1]()).status).toBe(200);
    const published = await bucketAfter(behind.version);
    expect(published.rateKey).not.toBe('stale');
    expect(content(published)).toEqual(content(await readWhole()));
  });
});
