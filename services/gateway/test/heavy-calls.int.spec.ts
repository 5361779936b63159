import { largeRuleset } from '../../../tools/devstack/src/load/admin-api';
import { filterFromJson, rulesV1 } from '@ratesmith/contracts';
import { validateFilters } from '@ratesmith/contracts/filters';
import { worstFilters } from '@ratesmith/contracts/testing';
import { HEAVY_CALL_BUSY, RpcClient, type AppError } from '@ratesmith/kit';
import { PREVIEW_BUSY } from '../src/http/heavy-calls';
import { freeze, thaw } from '../../../tools/devstack/src/faults/processes';
import { SHOP_A, SHOP_B, startStack, until, type Stack } from './harness';

/**
 * A shop's heavy calls (Save All, restores, imports, exports) run at most two
 * at a time in a gateway: more at once are refused before their body is read,
 * and other shops are not touched (services/gateway/src/http/heavy-calls.ts);
 * the rules service keeps the same bound per replica (services/kit/src/heavy-calls.ts).
 */
let stack: Stack;
beforeAll(async () => {
  // Patience: megabyte documents on FerretDB, on a machine shared with other suites.
  stack = await startStack(
    { API_BODY_LIMIT: '1536kb', NATS_REQUEST_TIMEOUT_MS: '60000' },
    {},
    {},
    {},
    {},
    30_000,
  );
}, 120_000);
afterAll(() => stack?.stop(), 120_000);

async function newRuleset(shop: string): Promise<string> {
  const created = await stack.api('/api/global-rules', {
    method: 'POST',
    token: stack.token(shop),
    json: { name: `Heavy ${shop}` },
  });
  expect(created.status).toBe(200);
  return created.body.rule.id as string;
}

it('refuses a third Save All of one shop while two run, with a message; another shop saves meanwhile', async () => {
  const [a, b] = [await newRuleset(SHOP_A), await newRuleset(SHOP_B)];
  // The largest list a ruleset may hold: each save keeps the rules service busy for hundreds of ms.
  const body = largeRuleset(100, 50);
  const save = (shop: string, id: string) =>
    stack.api(`/api/global-rules/update/${id}`, {
      method: 'POST',
      token: stack.token(shop),
      json: body,
    });
  const [first, second, third, fourth, other] = await Promise.all([
    save(SHOP_A, a),
    save(SHOP_A, a),
    save(SHOP_A, a),
    save(SHOP_A, a),
    save(SHOP_B, b),
  ]);
  expect([first, second, third, fourth].map((r) => r.status).sort()).toEqual([200, 200, 429, 429]);
  const refused = [first, second, third, fourth].find((r) => r.status === 429)!;
  expect(refused.body).toEqual({ status: false, message: HEAVY_CALL_BUSY });
  expect(refused.headers.get('retry-after')).toBe('1');
  expect(other.status).toBe(200);
  // Once they are answered the shop saves again.
  expect((await save(SHOP_A, a)).status).toBe(200);
}, 120_000);

it('does not count reads: a shop reads its rulesets while its saves run', async () => {
  const id = await newRuleset(SHOP_A);
  const body = largeRuleset(100, 50);
  const saves = [1, 2].map(() =>
    stack.api(`/api/global-rules/update/${id}`, { method: 'POST', json: body }),
  );
  const read = await stack.api('/api/global-rules');
  expect(read.status).toBe(200);
  expect((await Promise.all(saves)).map((r) => r.status)).toEqual([200, 200]);
}, 120_000);

it('the rules service keeps its own bound, whichever gateways the calls come through', async () => {
  const id = await newRuleset(SHOP_A);
  // As from several gateway replicas: straight onto the bus, past any one gateway's bound.
  const rules = new RpcClient(stack.nc, rulesV1.RulesService, {
    timeoutMs: 60_000,
    subjectPrefix: stack.servers.subjectPrefix,
    displayName: 'rules',
  });
  const filters = validateFilters(worstFilters(100), 'ruleset').filters.map(filterFromJson);
  const save = () =>
    rules.call('saveRulesetFilters', { shop: SHOP_A, id, filters, user: 'heavy' }).then(
      () => 'saved',
      (err: AppError) => `${err.kind}: ${err.message}`,
    );
  // The database held still: the first two saves wait on their first read in their slots
  // (a save of packed filters is otherwise done before the next one arrives).
  const mongoPid = stack.servers.mongoPid;
  if (mongoPid === undefined) throw new Error('needs a FerretDB of its own: unset MONGODB_URI');
  freeze(mongoPid);
  let outcomes: string[];
  try {
    const pending = [save(), save(), save(), save()];
    const answered = new Set<number>();
    pending.forEach((p, k) => void p.then(() => answered.add(k)));
    // The two past the bound are refused at once, while the database is still frozen.
    await until(
      async () => answered.size,
      (n) => n >= 2,
      'two saves refused while two wait on the database',
    );
    expect(answered.size).toBe(2);
    thaw(mongoPid);
    outcomes = await Promise.all(pending);
  } finally {
    thaw(mongoPid);
  }
  expect(outcomes.sort()).toEqual([
    `conflict: ${HEAVY_CALL_BUSY}`,
    `conflict: ${HEAVY_CALL_BUSY}`,
    'saved',
    'saved',
  ]);
  expect(await save()).toBe('saved');
}, 120_000);

it("refuses a third preview of one shop while two run, in the preview's words, without touching saves", async () => {
  const rate = {
    destination: { country: 'US' },
    currency: 'USD',
    items: Array.from({ length: 500 }, (_, n) => ({
      price: 1000 + n,
      quantity: 1,
      product_id: 100 + n,
      variant_id: 10_000 + n,
      name: `Line ${n}`,
    })),
  };
  // The largest draft a preview takes: each keeps the engine busy for a while.
  const body = { rate, draft: largeRuleset(100, 50) };
  const preview = () =>
    stack.api('/api/rate-preview', { method: 'POST', token: stack.token(SHOP_A), json: body });
  const id = await newRuleset(SHOP_A);
  const [first, second, third, fourth, save] = await Promise.all([
    preview(),
    preview(),
    preview(),
    preview(),
    stack.api(`/api/global-rules/update/${id}`, {
      method: 'POST',
      token: stack.token(SHOP_A),
      json: largeRuleset(2, 2),
    }),
  ]);
  expect([first, second, third, fourth].map((r) => r.status).sort()).toEqual([200, 200, 429, 429]);
  expect([first, second, third, fourth].find((r) => r.status === 429)!.body).toEqual({
    status: false,
    message: PREVIEW_BUSY,
  });
  // Previews have slots of their own: the shop's save went through meanwhile.
  expect(save.status).toBe(200);
  expect((await preview()).status).toBe(200);
}, 120_000);
