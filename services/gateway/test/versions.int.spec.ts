import { sentFilter } from '@ratesmith/contracts/testing';
import { startStack, type Stack } from './harness';
import { cart, rateKeyOf, raw, signBody, until } from './security/helpers';

/**
 * A ruleset's versions through the gateway: every Save All keeps one (who and
 * when), a version shows what it changed, a restore is a new version that
 * reaches checkout, and the newest 50 are kept.
 */
let stack: Stack;
const SHOP = 'versions-shop.myshopify.com';
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

const asStaff = (user: string) => stack.token(SHOP, { sub: user });
const call = (path: string, init: { json?: unknown; method?: string; user?: string } = {}) =>
  stack.api(path, {
    token: asStaff(init.user ?? '1'),
    method: init.method ?? (init.json ? 'POST' : 'GET'),
    json: init.json,
  });

async function newRuleset(name: string): Promise<string> {
  const res = await call('/api/global-rules', { json: { name } });
  expect(res.status).toBe(200);
  return res.body.rule.id as string;
}

/** Saves the list and answers the stored filters (with the ids the next save keeps). */
async function save(id: string, rules: unknown[], user = '1') {
  const res = await call(`/api/global-rules/update/${id}`, { json: { rules }, user });
  expect(res.status).toBe(200);
  return res.body.rules as Record<string, unknown>[];
}

/** What the carrier callback quotes for a 25.00 cart, as Shopify calls it. */
async function checkoutPrices(rateKey: string): Promise<string[]> {
  const body = JSON.stringify({ rate: cart() });
  const res = await raw(`${stack.carrierUrl}/carrier/rates/${rateKey}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-shopify-hmac-sha256': signBody(body) },
    body,
  });
  expect(res.status).toBe(200);
  return (JSON.parse(res.text) as { rates: { total_price: string }[] }).rates.map(
    (r) => r.total_price,
  );
}

describe('ruleset versions', () => {
  let id: string;
  let first: Record<string, unknown>[];

  it('keeps one version per Save All, with who and when, newest first; a repeated save keeps none', async () => {
    id = await newRuleset('Versioned');
    const started = Date.now();
    first = await save(id, [sentFilter({ name: 'Cheap carts' })], '101');
    const second = await save(id, [{ ...first[0], action_data: 7 }], '102');
    await save(id, [...second, sentFilter({ name: 'Second filter' })], '103');
    // The same list again (a retried Save All) changes nothing.
    const list = await call(`/api/global-rules/${id}/versions`);
    await save(id, (await call(`/api/global-rules/rules?globalRuleId=${id}`)).body.rules);
    expect(list.status).toBe(200);
    expect((await call(`/api/global-rules/${id}/versions`)).body).toEqual(list.body);
    const versions = list.body.versions as Record<string, unknown>[];
    expect(versions.map((v) => [v.number, v.user, v.event, v.summary])).toEqual([
      [3, '103', 'save', '1 rule change: 1 added'],
      [2, '102', 'save', '1 rule change: 1 changed'],
      [1, '101', 'save', '1 rule change: 1 added'],
    ]);
    for (const v of versions) {
      expect(v).toMatchObject({ kind: 'ruleset', subject_id: id, subject_name: 'Versioned' });
      expect(Date.parse(v.at as string)).toBeGreaterThanOrEqual(started - 1000);
      expect(Date.parse(v.at as string)).toBeLessThanOrEqual(Date.now());
    }
  });

  it('shows a version with what it changed against the one before, in merchant words', async () => {
    const res = await call(`/api/global-rules/${id}/versions/2`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: true, previous_number: 1, version: { number: 2 } });
    expect(res.body.rules.map((r: { action_data: number }) => r.action_data)).toEqual([7]);
    expect(res.body.changes).toEqual([
      {
        type: 'changed',
        filter: 'Cheap carts',
        text: 'Changed rule "Cheap carts"',
        details: ['Amount: 4.99 → 7'],
      },
    ]);
    const oldest = await call(`/api/global-rules/${id}/versions/1`);
    expect(oldest.body.previous_number).toBeNull();
    expect(oldest.body.changes.map((c: { text: string }) => c.text)).toEqual([
      'Added rule "Cheap carts" at #1',
    ]);
    expect((await call(`/api/global-rules/${id}/versions/9`)).status).toBe(404);
    expect((await call(`/api/global-rules/${id}/versions/0`)).status).toBe(400);
    expect((await call(`/api/global-rules/${id}/versions/1e3`)).status).toBe(400);
  });

  it('restores version 1 as a new version (5; 4 is the enable), and checkout quotes the restored filters', async () => {
    expect((await call(`/api/global-rules/${id}/toggle`, { user: '104' })).status).toBe(200);
    const rateKey = await rateKeyOf(stack, SHOP);
    // Version 3: 7.00 and 4.99, each filter adding its fee (each continues after a match).
    expect(await checkoutPrices(rateKey)).toEqual(['1199']);
    const restored = await call(`/api/global-rules/${id}/versions/1/restore`, {
      method: 'POST',
      user: '105',
    });
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({
      status: true,
      number: 5, // 4 is the enable
      message: 'Version 1 restored as version 5.',
    });
    expect(restored.body.rules).toEqual(first);
    const editor = await call(`/api/global-rules/rules?globalRuleId=${id}`);
    expect(editor.body.rules).toEqual(first);
    await until(
      () => checkoutPrices(rateKey),
      (prices) => prices[0] === '499',
      'checkout to quote the restored filters',
    );
    const versions = (await call(`/api/global-rules/${id}/versions`)).body.versions;
    expect(
      versions.slice(0, 2).map((v: Record<string, unknown>) => [v.number, v.user, v.event]),
    ).toEqual([
      [5, '105', 'restore'],
      [4, '104', 'enable'],
    ]);
    expect(versions[0].summary).toBe('Restored version 1 (2 rule changes: 1 removed, 1 changed)');
    // Restoring what the ruleset already has makes no version.
    const again = await call(`/api/global-rules/${id}/versions/5/restore`, { method: 'POST' });
    expect(again.body).toMatchObject({ status: true, number: null });
  });

  it("lists checkout's changes as the Dashboard's activity: the active ruleset's, not an inactive one's", async () => {
    const other = await newRuleset('Inactive one');
    await save(other, [sentFilter({ name: 'Not at checkout' })]);
    await call(`/api/global-rules/${id}/rename`, { json: { name: 'Live rules' }, user: '106' });
    const res = await call('/api/activity');
    expect(res.status).toBe(200);
    const activity = res.body.activity as Record<string, unknown>[];
    expect(activity.map((v) => [v.subject_name, v.event, v.user])).toEqual([
      ['Live rules', 'rename', '106'],
      ['Versioned', 'restore', '105'],
      ['Versioned', 'enable', '104'],
    ]);
    expect(activity.every((v) => v.checkout === true)).toBe(true);
  });

  it('keeps a version of each settings save that changed something, shown as activity', async () => {
    const settings = { carrier_name: 'Fast post', bump_shipping_enabled: false };
    expect((await call('/api/settings', { json: settings, user: '107' })).status).toBe(200);
    expect((await call('/api/settings', { json: settings })).status).toBe(200);
    const [latest, next] = (await call('/api/activity')).body.activity;
    expect(latest).toMatchObject({
      kind: 'settings',
      subject_name: 'Settings',
      number: 1,
      user: '107',
      summary: 'Changed carrier name',
      checkout: true,
    });
    expect(next).toMatchObject({ subject_name: 'Live rules', event: 'rename' });
  });

  it("keeps a product rule's versions: list, changes in its scope's words, restore", async () => {
    stack.shopify.products.setProducts(SHOP, [
      {
        id: 770_001,
        title: 'Lamp',
        handle: 'lamp',
        vendor: 'V',
        image: null,
        variants: [{ id: 770_101, title: 'Default Title', price: '30.00' }],
      },
    ]);
    const added = await call('/api/product-rules/add-shopify-product', {
      json: { products: ['gid://shopify/Product/770001'] },
    });
    expect(added.status).toBe(200);
    const list = (await call('/api/product-rules')).body.products.data as { id: string }[];
    const rule = list[0]!.id;
    const base = `/api/product-rules/${rule}/versions`;
    const update = async (rules: unknown[], user: string) => {
      const res = await call(`/api/product-rules/update/${rule}`, { json: { rules }, user });
      expect(res.status).toBe(200);
      return res.body.rules as Record<string, unknown>[];
    };
    const first = await update(
      [sentFilter({ name: 'Lamp fee', action_type: 0, action_data: null })],
      '201',
    );
    await update([{ ...first[0], action_type: 2, action_data: 3 }], '202');
    // The same list again: no version.
    await update((await call(`/api/product-rules/${rule}/rules`)).body.rules, '203');
    const versions = (await call(base)).body.versions as Record<string, unknown>[];
    expect(versions.map((v) => [v.number, v.user, v.kind, v.subject_name])).toEqual([
      [2, '202', 'product_rule', 'Lamp'],
      [1, '201', 'product_rule', 'Lamp'],
    ]);
    const second = await call(`${base}/2`);
    expect(second.body.changes[0].details).toEqual([
      'Action: Make Shipping Free For This Item → Add Shipping Fee For Each Retail Product',
      'Amount: (none) → 3',
    ]);
    const restored = await call(`${base}/1/restore`, { method: 'POST', user: '204' });
    expect(restored.body).toMatchObject({ number: 3, message: 'Version 1 restored as version 3.' });
    expect(restored.body.rules).toEqual(first);
    expect((await call(`/api/product-rules/${rule}/rules`)).body.rules).toEqual(first);
    const [latest] = (await call('/api/activity')).body.activity;
    expect(latest).toMatchObject({
      kind: 'product_rule',
      number: 3,
      event: 'restore',
      user: '204',
    });
    // Versions of a ruleset id asked as a product rule's are not found.
    expect((await call(`/api/product-rules/${id}/versions`)).status).toBe(404);
    expect((await call(`/api/product-rules/${id}/versions/1`)).status).toBe(404);
  });

  it('reads and restores a version written before contents moved to their own collection', async () => {
    const old = await newRuleset('Older history');
    const saved = await save(old, [sentFilter({ action_data: '3' })]);
    await call(`/api/global-rules/${old}/versions`); // version 1 is written
    // A line as the service wrote it before the split: the content inside it.
    const content = { name: 'Older history', filters: [{ ...saved[0], action_data: 42 }] };
    await stack.dbs.rules.db!.collection('versions').insertOne({
      shop: SHOP,
      kind: 'ruleset',
      subjectId: old,
      subjectName: 'Older history',
      number: 2,
      at: new Date(),
      user: '1',
      event: 'save',
      summary: '1 rule change: 1 changed',
      checkout: false,
      content,
    });
    const shown = await call(`/api/global-rules/${old}/versions/2`);
    expect(shown.status).toBe(200);
    expect(shown.body.rules[0].action_data).toBe(42);
    expect(shown.body.previous_number).toBe(1);
    const restored = await call(`/api/global-rules/${old}/versions/2/restore`, { method: 'POST' });
    expect(restored.status).toBe(200);
    expect(restored.body.rules[0].action_data).toBe(42);
    expect(restored.body.number).toBe(3);
  });

  it("keeps a version's content packed, and reads one written as nested documents before", async () => {
    const ruleset = await newRuleset('Packed history');
    const saved = await save(ruleset, [sentFilter({ action_data: '3' })]);
    await call(`/api/global-rules/${ruleset}/versions`); // version 1 is written
    const contents = stack.dbs.rules.db!.collection<{
      _id: string;
      content?: unknown;
      content_packed: { buffer: Uint8Array };
    }>('version_contents');
    const id = `${SHOP}/ruleset/${ruleset}/1`;
    const packed = (await contents.findOne({ _id: id }))!;
    expect(packed.content).toBeUndefined();
    const content = JSON.parse(Buffer.from(packed.content_packed.buffer).toString('utf8'));
    expect(content).toEqual({ name: 'Packed history', filters: saved });
    // As written before packing: the content as nested documents.
    await contents.updateOne(
      { _id: id },
      {
        $set: { content: { ...content, filters: [{ ...saved[0], action_data: 42 }] } },
        $unset: { content_packed: '' },
      },
    );
    const shown = await call(`/api/global-rules/${ruleset}/versions/1`);
    expect(shown.status).toBe(200);
    expect(shown.body.rules[0].action_data).toBe(42);
  });

  it('keeps the newest 50 of 55 saves', async () => {
    const many = await newRuleset('Many saves');
    let rules = await save(many, [sentFilter({ action_data: '1' })]);
    for (let n = 2; n <= 55; n++) rules = await save(many, [{ ...rules[0], action_data: n }]);
    const versions = (await call(`/api/global-rules/${many}/versions`)).body.versions as {
      number: number;
    }[];
    // At once: the newest 50 only, whether or not the older ones are deleted yet.
    expect(versions.map((v) => v.number)).toEqual(Array.from({ length: 50 }, (_, i) => 55 - i));
    expect((await call(`/api/global-rules/${many}/versions/5`)).status).toBe(404);
    expect((await call(`/api/global-rules/${many}/versions/6`)).body.previous_number).toBeNull();
    // Once the shop is quiet (VersionPruning) the older lines are deleted, each kept line
    // keeps its content, and the pruned ones' contents are gone with them.
    const db = stack.dbs.rules.db!;
    const lines = await until(
      () =>
        db
          .collection('versions')
          .find({ shop: SHOP, subjectId: many }, { projection: { contentId: 1, content: 1 } })
          .toArray(),
      (found) => found.length === versions.length,
      'the versions past the newest 50 pruned',
    );
    for (const line of lines) {
      expect(line.content).toBeUndefined();
      expect(line.contentId).toBeDefined();
    }
    const contents = db.collection('version_contents');
    expect(await contents.countDocuments({ _id: { $in: lines.map((l) => l.contentId) } })).toBe(
      versions.length,
    );
    const pruned = [1, 2, 3, 4, 5].map((n) => `${SHOP}/ruleset/${many}/${n}`);
    expect(await contents.countDocuments({ _id: { $in: pruned as never[] } })).toBe(0);
    const shown = await call(`/api/global-rules/${many}/versions/55`);
    expect(shown.body.rules[0].action_data).toBe(55);
    // The oldest kept version compares with the one before it that is kept: none.
    const oldest = versions.at(-1)!.number;
    expect(
      (await call(`/api/global-rules/${many}/versions/${oldest}`)).body.previous_number,
    ).toBeNull();
  }, 60_000);

  it('a version is written after its save: when writing it fails, the save stands and no version shows', async () => {
    const ruleset = await newRuleset('Write order');
    const saved = await save(ruleset, [sentFilter()]);
    // Version 1 is written after the answer: a read of the history waits for it.
    await call(`/api/global-rules/${ruleset}/versions`);
    const counters = stack.dbs.rules.db!.collection<{ _id: string }>('version_counters');
    const counter = { _id: `${SHOP}/ruleset/${ruleset}` };
    // A stored number the next one cannot follow ($inc refuses it): the version write fails after the save.
    await counters.updateOne(counter, { $set: { last: 'not a number' } });
    try {
      const changed = await save(ruleset, [{ ...saved[0], action_data: 9 }]);
      expect(changed[0]!.action_data).toBe(9);
      // The version is written after the answer; a read of the history waits for that write.
      await call(`/api/global-rules/${ruleset}/versions`);
    } finally {
      await counters.updateOne(counter, { $set: { last: 1 } });
    }
    const editor = await call(`/api/global-rules/rules?globalRuleId=${ruleset}`);
    expect(editor.body.rules[0].action_data).toBe(9);
    const list = (await call(`/api/global-rules/${ruleset}/versions`)).body.versions;
    expect(list.map((v: { number: number }) => v.number)).toEqual([1]);
  });

  it("shop/redact waits for the shop's versions still being written: none is left after it", async () => {
    const shop = 'versions-redacted.myshopify.com';
    const token = stack.token(shop);
    const created = await stack.api('/api/global-rules', {
      token,
      method: 'POST',
      json: { name: 'Gone' },
    });
    expect(created.status).toBe(200);
    const ruleset = (created.body as { rule: { id: string } }).rule.id;
    // Saves of 100 filters queue their version writes (one after another per shop, each
    // a second or more on this database), so the redaction arrives while they wait. Two at
    // a time: a shop's third Save All at once is refused (services/gateway/src/http/heavy-calls.ts).
    const save = (fee: number) =>
      stack.api(`/api/global-rules/update/${ruleset}`, {
        token,
        method: 'POST',
        json: {
          rules: Array.from({ length: 100 }, (_, i) =>
            sentFilter({ name: `Filter ${i}`, action_data: String(fee) }),
          ),
        },
      });
    for (const pair of [
      [1, 2],
      [3, 4],
    ])
      for (const res of await Promise.all(pair.map(save))) expect(res.status).toBe(200);
    stack.shopify.uninstall(shop);
    for (const topic of ['app/uninstalled', 'shop/redact'])
      expect(
        (await stack.shopify.sendWebhook(`${stack.baseUrl}/webhooks/${topic}`, topic, shop)).status,
      ).toBe(200);
    const db = stack.dbs.rules.db!;
    await until(
      () => db.collection('rulesets').countDocuments({ shop }),
      (n) => n === 0,
      "the shop's rulesets to go",
      60_000,
    );
    // A version write that did not wait for the redaction would land from now on.
    await new Promise((r) => setTimeout(r, 3000));
    expect(await db.collection('versions').countDocuments({ shop })).toBe(0);
    expect(await db.collection('version_contents').countDocuments({ shop })).toBe(0);
  }, 120_000);

  it('deleting a ruleset deletes its versions', async () => {
    const gone = await newRuleset('Deleted');
    await save(gone, [sentFilter()]);
    const db = stack.dbs.rules.db!;
    await call(`/api/global-rules/${gone}/versions`); // waits for the version's write
    const contentIds = (
      await db.collection('versions').find({ shop: SHOP, subjectId: gone }).toArray()
    ).map((line) => line.contentId);
    expect(contentIds).toHaveLength(1);
    expect((await call(`/api/global-rules/${gone}`, { method: 'DELETE' })).status).toBe(200);
    const left = await db.collection('versions').countDocuments({ shop: SHOP, subjectId: gone });
    expect(left).toBe(0);
    expect(
      await db.collection('version_contents').countDocuments({ _id: { $in: contentIds } }),
    ).toBe(0);
  });
});
