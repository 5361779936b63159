import { Writable } from 'node:stream';
import { sentFilter } from '@ratesmith/contracts/testing';
import { freeze, thaw } from '@ratesmith/devstack';
import { decodeSnapshot } from '@ratesmith/kit';
import { startStack, until, type Stack } from './harness';

/**
 * A Save All the gateway answered 503 is not applied afterwards.
 * The rules database stalls (FerretDB frozen, as a stalled machine looks)
 * while the save reads; the gateway stops waiting at its NATS timeout; once
 * the database is back the save reaches its first write past its deadline
 * and sends none (services/kit/src/mongo.ts): the ruleset, its versions and
 * checkout's snapshot stay as they were, and a later save works.
 */
const SHOP = 'deadline-shop.myshopify.com';
/** Below the driver's 2 s connect timeout, so the frozen database is only slow, not lost. */
const NATS_TIMEOUT_MS = 1500;
const logLines: Record<string, unknown>[] = [];
const sink = new Writable({
  write(chunk, _enc, done) {
    for (const line of String(chunk).split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
    done();
  },
});

let stack: Stack;
beforeAll(async () => {
  stack = await startStack(
    // The shop's "installed" answer is kept, so the gateway does not ask auth (and its
    // database, frozen too) on the way to the save.
    { NATS_REQUEST_TIMEOUT_MS: String(NATS_TIMEOUT_MS), INSTALLED_CACHE_MS: '600000' },
    {},
    {},
    // Debug: a handled request logs 'handled'.
    { level: 'debug', destination: sink },
  );
});
afterAll(() => stack?.stop());

const token = () => stack.token(SHOP);
const saveAll = (id: string, fee: number) =>
  stack.api(`/api/global-rules/update/${id}`, {
    token: token(),
    method: 'POST',
    json: { rules: [sentFilter({ name: 'Flat fee', action_data: fee })] },
  });
const storedFees = async (id: string) =>
  (
    await stack.api(`/api/global-rules/rules?globalRuleId=${id}`, { token: token() })
  ).body.rules.map((r: { action_data: unknown }) => r.action_data);
const versionNumbers = async (id: string) =>
  (await stack.api(`/api/global-rules/${id}/versions`, { token: token() })).body.versions.map(
    (v: { number: number }) => v.number,
  );
const checkoutRuleset = async () => {
  const entry = await stack.kv.get(SHOP);
  return (decodeSnapshot(entry!.value) as { globalRuleset: unknown }).globalRuleset;
};

it('a Save All whose caller stopped waiting before its write changes nothing; the next one saves', async () => {
  const mongoPid = stack.servers.mongoPid;
  if (mongoPid === undefined) throw new Error('needs a FerretDB of its own: unset MONGODB_URI');
  const created = await stack.api('/api/global-rules', {
    token: token(),
    method: 'POST',
    json: { name: 'Deadline' },
  });
  const id = created.body.rule.id as string;
  expect((await saveAll(id, 5)).status).toBe(200);
  // Active, so the save goes through the snapshot's mark first (SnapshotPublisher.change).
  expect((await stack.api(`/api/global-rules/${id}/toggle`, { token: token() })).status).toBe(200);
  expect(await storedFees(id)).toEqual([5]);
  const versionsBefore = await versionNumbers(id);
  const checkoutBefore = await checkoutRuleset();

  logLines.length = 0;
  const started = Date.now();
  freeze(mongoPid);
  let late;
  try {
    late = await saveAll(id, 9);
  } finally {
    thaw(mongoPid);
  }
  expect(late.status).toBe(503);
  expect(Date.now() - started).toBeGreaterThanOrEqual(NATS_TIMEOUT_MS);
  // Once the database is back the rules service ends the save, one way or the other.
  const ended = await until(
    async () =>
      logLines.find(
        (l) =>
          l.rpc === 'SaveRulesetFilters' &&
          (l.msg === 'handled' || l.msg === 'caller stopped waiting: dropped'),
      ),
    Boolean,
    'the rules service to end the late save',
  );
  expect(await storedFees(id)).toEqual([5]);
  expect(await versionNumbers(id)).toEqual(versionsBefore);
  expect(await checkoutRuleset()).toEqual(checkoutBefore);
  // Picked up at once, it read, and was still before its first write when the deadline passed.
  expect(ended).toMatchObject({ msg: 'caller stopped waiting: dropped', level: 'info' });
  expect(ended!.ms).toBeGreaterThanOrEqual(NATS_TIMEOUT_MS - 100);

  expect((await saveAll(id, 9)).status).toBe(200);
  expect(await storedFees(id)).toEqual([9]);
  expect(await versionNumbers(id)).toHaveLength(versionsBefore.length + 1);
}, 60_000);
