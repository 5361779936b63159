import type { Snapshot } from '@ratesmith/contracts';
import { sentFilter } from '@ratesmith/contracts/testing';
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
