import { rulesV1, type Snapshot } from '@ratesmith/contracts';
import { RpcClient } from '@ratesmith/kit';
import { SHOP_A, SHOP_B, SHOP_C, startStack, until, type Stack } from './harness';

let stack: Stack;
let rules: RpcClient<(typeof rulesV1.RulesService)['method']> | any;
beforeAll(async () => {
  stack = await startStack();
  rules = new RpcClient(stack.nc, rulesV1.RulesService, {
    timeoutMs: 3000,
    subjectPrefix: stack.servers.subjectPrefix,
    displayName: 'rules',
  });
});
afterAll(() => stack?.stop());

async function snapshotOf(shop: string): Promise<Snapshot | undefined> {
  const entry = await stack.kv.get(shop);
  return entry && entry.length ? (entry.json() as Snapshot) : undefined;
}

const hat = {
  productId: 'gid://shopify/Product/1001',
  name: 'Hat',
  image: 'https://cdn.example/hat.png',
  variants: [
    { id: '11', title: 'S', price: '10.00' },
    { id: '12', title: 'M', price: '0.00' },
  ],
};

describe('product rules', () => {
  it('lists product rules as products.data with image, metadata and variant count', async () => {
    const added = await rules.call('addProductRules', {
      shop: SHOP_A,
      products: [hat, { ...hat, productId: '1001' }],
    });
    expect(added.added).toHaveLength(1);
    expect(added.skipped).toEqual(['1001']);
    const { status, body } = await stack.api(`/api/product-rules?shop=${SHOP_A}`);
    expect(status).toBe(200);
    expect(body.products.data).toEqual([
      expect.objectContaining({
        product_id: '1001',
        name: 'Hat',
        image: hat.image,
        metadata: {
          image: { src: hat.image },
          variants: [
            { id: '11', title: 'S', price: '10.00' },
            { id: '12', title: 'M', price: '0.00' },
          ],
        },
        variants_count: 2,
        active: true,
        filters: [],
      }),
    ]);
  });

  it('toggles and deletes a product rule, and another shop cannot', async () => {
    const { added } = await rules.call('addProductRules', {
      shop: SHOP_A,
      products: [{ ...hat, productId: '2002', name: 'Scarf' }],
    });
    const id = added[0].id;
    expect(
      (await stack.api(`/api/product-rules/${id}/toggle`, { token: stack.token(SHOP_B) })).status,
    ).toBe(404);
    expect(
      (
        await stack.api(`/api/product-rules/${id}`, {
          method: 'DELETE',
          token: stack.token(SHOP_B),
        })
      ).status,
    ).toBe(404);
    expect((await stack.api(`/api/product-rules/${id}/toggle`)).body).toEqual({
      status: true,
      message: 'Product rule disabled.',
    });
    expect((await snapshotOf(SHOP_A))?.productRules.find((r) => r.id === id)?.active).toBe(false);
    expect((await stack.api(`/api/product-rules/${id}/toggle`)).body.message).toBe(
      'Product rule enabled.',
    );
    expect(
      (await stack.api(`/api/product-rules/${id}?shop=${SHOP_A}`, { method: 'DELETE' })).body,
    ).toEqual({
      status: true,
      message: 'Product rule deleted.',
    });
    const list = (await stack.api('/api/product-rules')).body.products.data;
    expect(list.some((r: { id: string }) => r.id === id)).toBe(false);
    expect((await stack.api(`/api/product-rules/${id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('refuses product ids that are not Shopify product ids', async () => {
    await expect(
      rules.call('addProductRules', {
        shop: SHOP_A,
        products: [{ ...hat, productId: 'gid://shopify/Order/1' }],
      }),
    ).rejects.toMatchObject({
      kind: 'invalid_data',
    });
  });
});

describe('settings', () => {
  it('answers the defaults for a shop that never saved', async () => {
    const { status, body } = await stack.api(`/api/settings?shop=${SHOP_B}`, {
      token: stack.token(SHOP_B),
    });
    expect(status).toBe(200);
    expect(body).toEqual({
      status: true,
      message: '',
      settings: {
        carrier_name: '',
        carrier_description: '',
        bump_shipping_enabled: false,
        bump_shipping_name: '',
        bump_shipping_description: '',
        bump_shipping_action: null,
        bump_shipping_cost: 0,
        fallback_enabled: false,
        fallback_name: '',
        fallback_description: '',
        fallback_cost: 0,
        recent_checkouts_enabled: true,
        recent_checkouts_per_minute: 6,
        recent_checkouts_days: 14,
        timezone: 'UTC',
        business_days: [1, 2, 3, 4, 5],
        holidays: [],
        cutoff_time: null,
        processing_days: 0,
        delivery_min_days: null,
        delivery_max_days: null,
        bump_delivery_min_days: null,
        bump_delivery_max_days: null,
        upgrades: [],
      },
    });
  });

  it('saves settings sent as a form would send them and reads them back', async () => {
    const save = await stack.api(`/api/settings?shop=${SHOP_A}`, {
      method: 'POST',
      json: {
        carrier_name: ' Ratesmith ',
        carrier_description: 'Rules',
        bump_shipping_enabled: 'true',
        bump_shipping_name: 'Express',
        bump_shipping_action: '1',
        bump_shipping_cost: '15',
      },
    });
    expect(save.status).toBe(200);
    expect(save.body).toMatchObject({ status: true, message: 'Settings saved.' });
    const { body } = await stack.api('/api/settings');
    expect(body.settings).toEqual({
      carrier_name: 'Ratesmith',
      carrier_description: 'Rules',
      bump_shipping_enabled: true,
      bump_shipping_name: 'Express',
      bump_shipping_description: '',
      bump_shipping_action: 1,
      bump_shipping_cost: 15,
      fallback_enabled: false,
      fallback_name: '',
      fallback_description: '',
      fallback_cost: 0,
      // A form without them keeps the defaults.
      recent_checkouts_enabled: true,
      recent_checkouts_per_minute: 6,
      recent_checkouts_days: 14,
      // So do the delivery calendar, windows and services.
      timezone: 'UTC',
      business_days: [1, 2, 3, 4, 5],
      holidays: [],
      cutoff_time: null,
      processing_days: 0,
      delivery_min_days: null,
      delivery_max_days: null,
      bump_delivery_min_days: null,
      bump_delivery_max_days: null,
      upgrades: [],
    });
    expect((await snapshotOf(SHOP_A))?.settings).toEqual(body.settings);
  });

  it('refuses bad settings with every message and keeps the stored ones', async () => {
    const res = await stack.api('/api/settings', {
      method: 'POST',
      json: {
        carrier_name: 'c'.repeat(161),
        bump_shipping_enabled: true,
        bump_shipping_name: '',
        bump_shipping_action: 3,
        bump_shipping_cost: -2,
      },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      status: false,
      message: 'Please fix the following errors:',
      errors: [
        'Carrier name must be at most 160 characters.',
        'Bump shipping type must be a percent, a static fee, or not chosen.',
        'Bump shipping cost must be a number from 0 to 1,000,000.',
        'Bump shipping needs a name when it is enabled.',
      ],
      // Each problem of a field by its field, for the Settings page to say it there.
      fields: {
        carrier_name: 'Carrier name must be at most 160 characters.',
        bump_shipping_action: 'Bump shipping type must be a percent, a static fee, or not chosen.',
        bump_shipping_cost: 'Bump shipping cost must be a number from 0 to 1,000,000.',
        bump_shipping_name: 'Bump shipping needs a name when it is enabled.',
      },
    });
    expect((await stack.api('/api/settings')).body.settings.carrier_name).toBe('Ratesmith');
    const notNumber = await stack.api('/api/settings', {
      method: 'POST',
      json: { bump_shipping_cost: 'ten' },
    });
    expect(notNumber.status).toBe(400);
    expect(notNumber.body.errors).toEqual(['bump_shipping_cost: must be a number']);
    expect(notNumber.body.fields).toEqual({ bump_shipping_cost: 'must be a number' });
  });

  it('refuses bump shipping that is on without its pricing chosen or its cost, at each field', async () => {
    const before = (await stack.api('/api/settings')).body.settings;
    const res = await stack.api('/api/settings', {
      method: 'POST',
      json: {
        ...before,
        bump_shipping_enabled: true,
        bump_shipping_name: 'Express',
        bump_shipping_action: '',
        bump_shipping_cost: '',
      },
    });
    expect([res.status, res.body]).toEqual([
      400,
      {
        status: false,
        message: 'The request is not valid.',
        errors: [
          'bump_shipping_action: Choose how bump shipping is priced: a percent or a static fee on top.',
          'bump_shipping_cost: Enter the bump shipping cost: a number such as 15 (a percent) or 4.99 (a fee), 0 for none.',
        ],
        fields: {
          bump_shipping_action:
            'Choose how bump shipping is priced: a percent or a static fee on top.',
          bump_shipping_cost:
            'Enter the bump shipping cost: a number such as 15 (a percent) or 4.99 (a fee), 0 for none.',
        },
      },
    ]);
    expect((await stack.api('/api/settings')).body.settings).toEqual(before);
    // Off, nothing chosen and no cost are the defaults.
    const off = await stack.api('/api/settings', {
      method: 'POST',
      json: {
        ...before,
        bump_shipping_enabled: false,
        bump_shipping_action: '',
        bump_shipping_cost: '',
      },
    });
    expect(off.status).toBe(200);
    expect(off.body.settings).toMatchObject({ bump_shipping_action: null, bump_shipping_cost: 0 });
    expect((await stack.api('/api/settings', { method: 'POST', json: before })).status).toBe(200);
  });
});

describe('the NUL character (U+0000)', () => {
  const shop = 'nul-text.myshopify.com';
  it('is refused in any JSON text and any URL with a 400 that says so, storing nothing', async () => {
    const token = stack.token(shop);
    const before = await stack.api('/api/settings', { token });
    const nul = await stack.api('/api/settings', {
      token,
      method: 'POST',
      json: { ...before.body.settings, carrier_name: 'Fast\u0000' },
    });
    expect([nul.status, nul.body]).toEqual([
      400,
      { status: false, message: 'Text in the request cannot contain the NUL character (U+0000).' },
    ]);
    const named = await stack.api('/api/global-rules', {
      token,
      method: 'POST',
      json: { 'a\u0000': 1, name: 'x' },
    });
    expect(named.status).toBe(400);
    expect((await stack.api('/api/settings', { token })).body).toEqual(before.body);
    for (const path of ['/api/global-rules/%00/versions/1', '/api/recent-checkouts?search=a%00'])
      expect(await stack.api(path, { token })).toMatchObject({
        status: 400,
        body: { status: false, message: 'The request path is not valid.' },
      });
    // The six characters \u0000 typed as text are text.
    const typed = await stack.api('/api/global-rules', {
      token,
      method: 'POST',
      json: { name: 'Rates \\u0000' },
    });
    expect([typed.status, typed.body.rule.name]).toEqual([200, 'Rates \\u0000']);
  });
});

describe('snapshots', () => {
  it('publishes a newer snapshot after each change that affects rates', async () => {
    const create = await stack.api('/api/global-rules', {
      method: 'POST',
      json: { name: 'Snap' },
      token: stack.token(SHOP_B),
    });
    const id = create.body.rule.id;
    const asB = { token: stack.token(SHOP_B) };
    const versions: number[] = [];
    const record = async () => versions.push((await snapshotOf(SHOP_B))?.version ?? -1);

    await stack.api(`/api/global-rules/${id}/toggle`, asB);
    await record();
    let snapshot = await snapshotOf(SHOP_B);
    expect(snapshot).toMatchObject({
      shop: SHOP_B,
      globalRuleset: { id, name: 'Snap', filters: [] },
      productRules: [],
    });

    const filter = {
      name: 'Free over 100',
      raw_query: {
        condition: 'AND',
        rules: [
          { type: 'condition', field: 'cart_price', operator: 'greater_or_equal', value: 100 },
        ],
      },
      action_type: 0,
    };
    await stack.api(`/api/global-rules/update/${id}`, {
      method: 'POST',
      json: { rules: [filter] },
      ...asB,
    });
    await record();
    snapshot = await snapshotOf(SHOP_B);
    expect(snapshot?.globalRuleset?.filters[0]).toMatchObject({
      name: 'Free over 100',
      action_type: 0,
      raw_query: { condition: 'AND' },
    });

    await stack.api('/api/settings', { method: 'POST', json: { carrier_name: 'B ships' }, ...asB });
    await record();
    expect((await snapshotOf(SHOP_B))?.settings.carrier_name).toBe('B ships');

    await stack.api(`/api/global-rules/${id}`, { method: 'DELETE', ...asB });
    await record();
    expect((await snapshotOf(SHOP_B))?.globalRuleset).toBeNull();

    for (let i = 1; i < versions.length; i++) expect(versions[i]).toBeGreaterThan(versions[i - 1]!);
  });

  it("orders snapshots by the database counter: a save after another replica's newer version goes past it", async () => {
    const before = (await snapshotOf(SHOP_B))!;
    const { published } = await rules.call('rebuildSnapshots', { shop: SHOP_B });
    expect(published).toBe(1);
    const after = (await snapshotOf(SHOP_B))!;
    expect(after.version).toBeGreaterThan(before.version);
    // The rebuild clears its publish mark after it answered; until then the retry
    // loop may publish the shop once more, which would take a version of its own.
    const versions = stack.dbs.rules.db!.collection('snapshot_versions');
    await until(
      () => versions.findOne({ shop: SHOP_B }),
      (doc) => doc?.dirty === false,
      "the rebuild's publish mark to clear",
    );
    // Another replica took version +100 from the counter, wrote and published it.
    await versions.updateOne(
      { shop: SHOP_B },
      { $set: { version: after.version + 100, dirty: false } },
    );
    await stack.kv.put(
      SHOP_B,
      JSON.stringify({ ...after, version: after.version + 100, settings: { ...after.settings } }),
    );
    await stack.api('/api/settings', {
      method: 'POST',
      json: { carrier_name: 'now' },
      token: stack.token(SHOP_B),
    });
    const latest = (await snapshotOf(SHOP_B))!;
    expect(latest.settings.carrier_name).toBe('now');
    expect(latest.version).toBe(after.version + 101);
  });

  describe('after MongoDB is restored from an older backup (the bucket is ahead of the counter)', () => {
    /** Rewinds the shop's counter, as restoring a backup taken `back` versions ago does. */
    async function restoreCounter(shop: string, back: number) {
      const bucket = (await snapshotOf(shop))!;
      const versions = stack.dbs.rules.db!.collection('snapshot_versions');
      await versions.updateOne({ shop }, { $set: { version: bucket.version - back } });
      return bucket;
    }

    it("the next save reaches checkout, past the bucket's version", async () => {
      const asB = { token: stack.token(SHOP_B) };
      await stack.api('/api/settings', { method: 'POST', json: { carrier_name: 'late' }, ...asB });
      const ahead = await restoreCounter(SHOP_B, 5);
      const res = await stack.api('/api/settings', {
        method: 'POST',
        json: { carrier_name: 'restored, then saved' },
        ...asB,
      });
      expect(res.status).toBe(200);
      const latest = (await snapshotOf(SHOP_B))!;
      expect(latest.settings.carrier_name).toBe('restored, then saved');
      expect(latest.version).toBeGreaterThan(ahead.version);
    });

    it('the rules service republishes the restored rules when it starts', async () => {
      const asB = { token: stack.token(SHOP_B) };
      await stack.api('/api/settings', {
        method: 'POST',
        json: { carrier_name: 'backup' },
        ...asB,
      });
      const backup = await stack.dbs.rules
        .db!.collection('shop_settings')
        .findOne({ shop: SHOP_B });
      await stack.api('/api/settings', { method: 'POST', json: { carrier_name: 'lost' }, ...asB });
      expect((await snapshotOf(SHOP_B))!.settings.carrier_name).toBe('lost');

      // The restore: settings and counter as they were at the backup.
      await stack.stopRules();
      const { _id, ...restored } = backup!;
      await stack.dbs.rules.db!.collection('shop_settings').replaceOne({ _id }, restored);
      const ahead = await restoreCounter(SHOP_B, 1);
      await stack.startRules();

      const republished = (await snapshotOf(SHOP_B))!;
      expect(republished.settings.carrier_name).toBe('backup');
      expect(republished.version).toBeGreaterThan(ahead.version);
    });
  });

  it("survives a brand-new shop's first changes arriving at the same time", async () => {
    const asC = { token: stack.token(SHOP_C) };
    const saves = await Promise.all(
      ['one', 'two', 'three', 'four'].map((name) =>
        stack.api('/api/settings', { method: 'POST', json: { carrier_name: name }, ...asC }),
      ),
    );
    expect(saves.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const stored = (await stack.api('/api/settings', asC)).body.settings.carrier_name;
    const snapshot = await snapshotOf(SHOP_C);
    expect(snapshot?.version).toBeGreaterThanOrEqual(1);
    expect(snapshot?.settings.carrier_name).toBe(stored);
  });

  it('rebuilds a lost bucket entry from MongoDB', async () => {
    await stack.kv.delete(SHOP_A);
    expect(await snapshotOf(SHOP_A)).toBeUndefined();
    await rules.call('rebuildSnapshots', { shop: '' });
    expect((await snapshotOf(SHOP_A))?.settings.carrier_name).toBe('Ratesmith');
  });
});

describe('when the rules service is down', () => {
  it('answers 503 at once with a clear message and Retry-After, and recovers when it is back', async () => {
    await stack.stopRules();
    const started = Date.now();
    const res = await stack.api('/api/global-rules');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(res.status).toBe(503);
    expect(res.body).toEqual({
      status: false,
      message: 'The rules service is not available right now. Please try again shortly.',
    });
    expect(res.headers.get('retry-after')).toBe('5');
    await stack.startRules();
    expect((await stack.api('/api/global-rules')).status).toBe(200);
  });

  it('answers 503 after the request timeout when the rules service hangs, never later', async () => {
    await stack.stopRules();
    // A subscriber that takes requests and never answers, like a frozen process.
    const subject = `${stack.servers.subjectPrefix}ratesmith.rules.v1.ListRulesets`;
    const hung = stack.nc.subscribe(subject);
    try {
      const started = Date.now();
      const res = await stack.api('/api/global-rules');
      const elapsed = Date.now() - started;
      expect(res.status).toBe(503);
      expect(res.body.message).toBe('The rules service did not answer in time. Please try again.');
      expect(elapsed).toBeGreaterThanOrEqual(1900);
      expect(elapsed).toBeLessThan(4000);
    } finally {
      hung.unsubscribe();
      await stack.startRules();
    }
  });
});
