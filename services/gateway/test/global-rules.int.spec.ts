import { sentCondition, sentFilter } from '@ratesmith/contracts/testing';
import { mongo, Types } from 'mongoose';
import { NOT_INSTALLED, SHOP_A, SHOP_B, startStack, type Stack } from './harness';

const { Binary } = mongo;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

const condition = sentCondition;
const validFilter = (name = 'Cheap carts') => sentFilter({ name });

async function createRuleset(name: string, token?: string): Promise<string> {
  const { status, body } = await stack.api('/api/global-rules', {
    method: 'POST',
    json: { name },
    token,
  });
  expect(status).toBe(200);
  return body.rule.id;
}

describe('global rulesets through the gateway', () => {
  it('lists nothing for a new shop, with the shop data', async () => {
    const { status, body } = await stack.api('/api/global-rules?shop=' + SHOP_B, {
      token: stack.token(SHOP_B),
    });
    expect(status).toBe(200);
    expect(body).toEqual({ shop: { shop: SHOP_B, global_rule_id: null }, globalRules: [] });
  });

  it('adds a ruleset and answers with status, message and rule', async () => {
    const { status, body } = await stack.api(`/api/global-rules?shop=${SHOP_A}`, {
      method: 'POST',
      json: { name: '  Summer  ' },
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      status: true,
      message: 'Ruleset created.',
      rule: { name: 'Summer', filters_count: 0, active: false },
    });
    const list = await stack.api('/api/global-rules');
    expect(list.body.globalRules.map((r: { name: string }) => r.name)).toContain('Summer');
  });

  it.each([[{}], [{ name: '' }], [{ name: '   ' }]])(
    'refuses a ruleset without a name (%j)',
    async (json) => {
      const { status, body } = await stack.api('/api/global-rules', { method: 'POST', json });
      expect(status).toBe(400);
      expect(body).toEqual({ status: false, message: 'Please enter a ruleset name' });
    },
  );

  it('drops unknown fields instead of storing them', async () => {
    const { body } = await stack.api('/api/global-rules', {
      method: 'POST',
      json: {
        name: 'Extra',
        shop_id: 'x',
        _id: 'abc',
        $set: { name: 'hacked' },
        __proto__: { admin: true },
      },
    });
    expect(body.rule.name).toBe('Extra');
    expect(Object.keys(body.rule).sort()).toEqual([
      'active',
      'created_at',
      'filters_count',
      'id',
      'name',
      'position',
    ]);
  });

  it('toggles: enabling one disables the other, and toggling the active one disables it', async () => {
    const first = await createRuleset('First');
    const second = await createRuleset('Second');
    expect((await stack.api(`/api/global-rules/${first}/toggle`)).body).toEqual({
      status: true,
      message: 'Ruleset enabled.',
    });
    expect((await stack.api('/api/global-rules')).body.shop.global_rule_id).toBe(first);
    await stack.api(`/api/global-rules/${second}/toggle`);
    const list = (await stack.api('/api/global-rules')).body;
    expect(list.shop.global_rule_id).toBe(second);
    expect(
      list.globalRules
        .filter((r: { active: boolean }) => r.active)
        .map((r: { id: string }) => r.id),
    ).toEqual([second]);
    expect((await stack.api(`/api/global-rules/${second}/toggle`)).body.message).toBe(
      'Ruleset disabled.',
    );
    expect((await stack.api('/api/global-rules')).body.shop.global_rule_id).toBeNull();
  });

  it('keeps exactly one ruleset enabled under concurrent toggles', async () => {
    const ids = await Promise.all(['C1', 'C2', 'C3', 'C4', 'C5'].map((n) => createRuleset(n)));
    const results = await Promise.all(ids.map((id) => stack.api(`/api/global-rules/${id}/toggle`)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    const list = (await stack.api('/api/global-rules')).body;
    const active = list.globalRules.filter((r: { active: boolean }) => r.active);
    expect(active).toHaveLength(1);
    expect(active[0].id).toBe(list.shop.global_rule_id);
  });

  it('deleting the active ruleset leaves none active', async () => {
    const id = await createRuleset('Doomed');
    await stack.api(`/api/global-rules/${id}/toggle`);
    const { status, body } = await stack.api(`/api/global-rules/${id}?shop=${SHOP_A}`, {
      method: 'DELETE',
    });
    expect(status).toBe(200);
    expect(body).toEqual({ status: true, message: 'Ruleset deleted.' });
    const list = (await stack.api('/api/global-rules')).body;
    expect(list.shop.global_rule_id).toBeNull();
    expect(list.globalRules.some((r: { id: string }) => r.id === id)).toBe(false);
    expect((await stack.api(`/api/global-rules/${id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('duplicates a ruleset with its filters as "Copy of <name>", inactive', async () => {
    const id = await createRuleset('Original');
    await stack.api(`/api/global-rules/update/${id}`, {
      method: 'POST',
      json: { rules: [validFilter('A'), validFilter('B')] },
    });
    await stack.api(`/api/global-rules/${id}/toggle`);
    const { status, body } = await stack.api(`/api/global-rules/${id}/duplicate`, {
      method: 'POST',
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      status: true,
      message: 'Ruleset duplicated.',
      rule: { name: 'Copy of Original', filters_count: 2, active: false },
    });
    const copy = await stack.api(`/api/global-rules/rules?globalRuleId=${body.rule.id}`);
    expect(copy.body.rules.map((f: { name: string }) => f.name)).toEqual(['A', 'B']);
  });

  it('lists each ruleset with its filter count, also one saved before counts were stored', async () => {
    const id = await createRuleset('Counted');
    await stack.api(`/api/global-rules/update/${id}`, {
      method: 'POST',
      json: { rules: [validFilter('A'), validFilter('B'), validFilter('C')] },
    });
    const older = await createRuleset('Older');
    await stack.api(`/api/global-rules/update/${older}`, {
      method: 'POST',
      json: { rules: [validFilter('A'), validFilter('B')] },
    });
    // As a ruleset written before filter_count existed: the list counts its filters instead.
    const rulesets = stack.dbs.rules.db!.collection('rulesets');
    await rulesets.updateOne({ _id: new Types.ObjectId(older) }, { $unset: { filter_count: '' } });
    expect((await rulesets.findOne({ _id: new Types.ObjectId(id) }))?.filter_count).toBe(3);
    const { body } = await stack.api('/api/global-rules');
    const count = (rid: string) =>
      body.globalRules.find((r: { id: string }) => r.id === rid)?.filters_count;
    expect([count(id), count(older)]).toEqual([3, 2]);
  });

  it('stores a filter list packed, and reads and repacks one stored as nested documents before', async () => {
    const id = await createRuleset('Packed');
    const save = (rules: unknown[]) =>
      stack.api(`/api/global-rules/update/${id}`, { method: 'POST', json: { rules } });
    expect((await save([validFilter('A'), validFilter('B')])).status).toBe(200);
    const rulesets = stack.dbs.rules.db!.collection('rulesets');
    const stored = async () => (await rulesets.findOne({ _id: new Types.ObjectId(id) }))!;
    const packed = await stored();
    expect(packed.filters).toBeUndefined();
    expect(packed.filters_packed).toBeInstanceOf(Binary);
    // Under 64 KB the packed bytes are the list's JSON.
    const list = JSON.parse(Buffer.from(packed.filters_packed.buffer).toString('utf8'));
    expect(list.map((f: { name: string }) => f.name)).toEqual(['A', 'B']);
    // As a ruleset saved before lists were packed: its filters as nested documents.
    await rulesets.updateOne(
      { _id: new Types.ObjectId(id) },
      { $set: { filters: list }, $unset: { filters_packed: '' } },
    );
    const read = async () =>
      (await stack.api(`/api/global-rules/rules?globalRuleId=${id}`)).body.rules as {
        name: string;
      }[];
    const names = async () => (await read()).map((f) => f.name);
    expect(await names()).toEqual(['A', 'B']);
    // Its next save compares with the nested list (the same list writes nothing) and packs.
    expect((await save(await read())).status).toBe(200);
    expect((await stored()).filters_packed).toBeUndefined();
    expect((await save([validFilter('C')])).status).toBe(200);
    const repacked = await stored();
    expect(repacked.filters).toBeUndefined();
    expect(repacked.filters_packed).toBeInstanceOf(Binary);
    expect(await names()).toEqual(['C']);
  });

  it('saves all filters and reads them back with nested groups intact', async () => {
    const id = await createRuleset('Editor');
    const save = await stack.api(`/api/global-rules/update/${id}?shop=${SHOP_A}`, {
      method: 'POST',
      json: { rules: [validFilter()] },
    });
    expect(save.status).toBe(200);
    expect(save.body).toMatchObject({ status: true, message: 'Rules saved.' });
    const { status, body } = await stack.api(
      `/api/global-rules/rules?shop=${SHOP_A}&globalRuleId=${id}`,
    );
    expect(status).toBe(200);
    expect(body.status).toBe(true);
    expect(body.globalRule).toMatchObject({ id, name: 'Editor', filters_count: 1 });
    expect(body.rules[0]).toMatchObject({
      name: 'Cheap carts',
      action_type: 1,
      action_data: 4.99,
      is_shipping_overridden: 'Yes',
      shipping_name: 'Saver',
      post_processing_action_type: 1,
      raw_query: {
        condition: 'AND',
        rules: [
          { type: 'condition', field: 'cart_price', operator: 'less_than', value: 50 },
          { type: 'group', condition: 'OR', rules: [{ value: 'US' }, { value: 'CA' }] },
        ],
      },
    });
  });

  it('answers every validation error at once and leaves the saved filters intact', async () => {
    const id = await createRuleset('Atomic');
    await stack.api(`/api/global-rules/update/${id}`, {
      method: 'POST',
      json: { rules: [validFilter('Kept')] },
    });
    const bad = [
      validFilter('Fine'),
      { ...validFilter(''), raw_query: { condition: 'AND', rules: [] } },
      {
        ...validFilter('Holes'),
        raw_query: {
          condition: 'OR',
          rules: [
            condition('cart_price', 'equal', ''),
            { type: 'group', condition: 'AND', rules: [] },
          ],
        },
      },
    ];
    const { status, body } = await stack.api(`/api/global-rules/update/${id}`, {
      method: 'POST',
      json: { rules: bad },
    });
    expect(status).toBe(400);
    expect(body).toEqual({
      status: false,
      message: 'Please fix the following errors:',
      errors: ['Rule #2 needs a name', 'Rule #3 has 2 incomplete condition(s)'],
    });
    const after = await stack.api(`/api/global-rules/rules?globalRuleId=${id}`);
    expect(after.body.rules.map((f: { name: string }) => f.name)).toEqual(['Kept']);
  });

  it('enforces the filter limits on the server', async () => {
    const id = await createRuleset('Limits');
    const tooMany = Array.from({ length: 101 }, (_, i) => validFilter(`F${i}`));
    const res = await stack.api(`/api/global-rules/update/${id}`, {
      method: 'POST',
      json: { rules: tooMany },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(['A ruleset can have at most 100 rules.']);
    const longName = await stack.api(`/api/global-rules/update/${id}`, {
      method: 'POST',
      json: { rules: [validFilter('n'.repeat(201))] },
    });
    expect(longName.body.errors).toEqual(['Rule #1 name must be at most 200 characters']);
  });

  it('answers 400 with a clear message for malformed filter JSON', async () => {
    const id = await createRuleset('Malformed');
    const res = await stack.api(`/api/global-rules/update/${id}`, {
      method: 'POST',
      json: { rules: [{ name: 'x', action_type: 'free' }] },
    });
    expect(res.status).toBe(400);
    expect(res.body.status).toBe(false);
    expect(res.body.message).toBe('The request is not valid.');
    expect(res.body.errors[0]).toMatch(/^rules\.0\.action_type/);
  });

  it('answers 404 for unknown and malformed ruleset ids', async () => {
    for (const id of ['0123456789abcdef01234567', 'not-an-id']) {
      expect((await stack.api(`/api/global-rules/${id}/toggle`)).status).toBe(404);
      expect((await stack.api(`/api/global-rules/rules?globalRuleId=${id}`)).body).toEqual({
        status: false,
        message: 'Ruleset not found.',
      });
    }
    expect((await stack.api('/api/global-rules/rules')).status).toBe(400);
  });
});

describe('tenancy', () => {
  it("never shows or changes another shop's rulesets", async () => {
    const id = await createRuleset('Private to A');
    const asB = stack.token(SHOP_B);
    expect((await stack.api('/api/global-rules', { token: asB })).body.globalRules).toEqual([]);
    for (const [path, method] of [
      [`/api/global-rules/${id}/toggle`, 'GET'],
      [`/api/global-rules/rules?globalRuleId=${id}`, 'GET'],
      [`/api/global-rules/${id}/duplicate`, 'POST'],
      [`/api/global-rules/update/${id}`, 'POST'],
      [`/api/global-rules/${id}`, 'DELETE'],
    ] as const) {
      const res = await stack.api(path, {
        method,
        token: asB,
        json: method === 'POST' ? { rules: [validFilter()] } : undefined,
      });
      expect([path, res.status]).toEqual([path, 404]);
    }
    const mine = await stack.api(`/api/global-rules/rules?globalRuleId=${id}`);
    expect(mine.body.globalRule.name).toBe('Private to A');
    expect(mine.body.rules).toEqual([]);
  });
});

describe('session tokens', () => {
  it.each([
    ['no token', () => null],
    ['an expired token', () => stack.token(SHOP_A, { exp: Math.floor(Date.now() / 1000) - 60 })],
    ['a token signed with another secret', () => stack.token(SHOP_A).replace(/\.[^.]+$/, '.AAAA')],
    ['a token for a shop that is not installed', () => stack.token(NOT_INSTALLED)],
  ])('refuses %s with 401 and the same body', async (_label, token) => {
    const res = await stack.api('/api/global-rules', { token: token() });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      status: false,
      message: 'Your session is not valid. Please reload the app from your Shopify admin.',
    });
    expect(res.headers.get('x-shopify-retry-invalid-session-request')).toBe('1');
  });

  it('refuses a token passed in the query string', async () => {
    const res = await stack.api(`/api/global-rules?id_token=${stack.token()}`, { token: null });
    expect(res.status).toBe(401);
  });

  it('refuses a shop parameter that differs from the token with 403', async () => {
    const inQuery = await stack.api(`/api/global-rules?shop=${SHOP_B}`);
    expect(inQuery.status).toBe(403);
    expect(inQuery.body).toEqual({
      status: false,
      message: 'This request names a different shop than your session.',
    });
    const inBody = await stack.api('/api/global-rules', {
      method: 'POST',
      json: { name: 'x', shop: SHOP_B },
    });
    expect(inBody.status).toBe(403);
    expect(
      (await stack.api('/api/global-rules')).body.globalRules.some(
        (r: { name: string }) => r.name === 'x',
      ),
    ).toBe(false);
  });
});

describe('HTTP edge', () => {
  it('refuses bodies over the limit (413), non-JSON bodies (415), bad JSON and deep nesting (400)', async () => {
    const big = await stack.api('/api/global-rules', {
      method: 'POST',
      json: { name: 'x'.repeat(200_000) },
    });
    expect(big.status).toBe(413);
    const form = await stack.api('/api/global-rules', {
      method: 'POST',
      body: 'name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(415);
    const broken = await stack.api('/api/global-rules', {
      method: 'POST',
      body: '{"name":',
      headers: { 'content-type': 'application/json' },
    });
    expect(broken).toMatchObject({
      status: 400,
      body: { status: false, message: 'The request body is not valid JSON.' },
    });
    let deep: unknown = { condition: 'AND', rules: [] };
    for (let i = 0; i < 40; i++) deep = { condition: 'AND', rules: [deep] };
    const nested = await stack.api('/api/global-rules/update/x', {
      method: 'POST',
      json: { rules: [{ raw_query: deep }] },
    });
    expect(nested.body).toEqual({
      status: false,
      message: 'The request body is nested too deeply.',
    });
  });

  it('sends frame-ancestors for the asking shop and no X-Frame-Options', async () => {
    const res = await fetch(`${stack.baseUrl}/?shop=${SHOP_A}`);
    expect(res.headers.get('content-security-policy')).toContain(
      `frame-ancestors https://${SHOP_A} https://admin.shopify.com`,
    );
    expect(res.headers.get('x-frame-options')).toBeNull();
    expect(res.headers.get('x-powered-by')).toBeNull();
  });

  it('does not hand out demo tokens unless demo mode is on', async () => {
    const res = await fetch(`${stack.baseUrl}/demo/session-token`);
    expect(res.status).toBe(404);
  });

  it('echoes a request id and answers unknown API paths with a JSON 404', async () => {
    const res = await stack.api('/api/nothing-here', { headers: { 'x-request-id': 'abc-123' } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ status: false, message: 'Not found.' });
    expect(res.headers.get('x-request-id')).toBe('abc-123');
  });
});
