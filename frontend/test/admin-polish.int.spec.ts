import type { Page } from 'playwright-core';
import { draftCondition, draftFilter, draftGroup } from '@ratesmith/contracts/testing';
import {
  expectNoAxeViolations,
  appAndBrowser,
  installThroughDouble,
  openPage,
  screenshot,
} from './harness';

/**
 * The admin's polish in Chromium against the app as `npm start` runs it, for a shop
 * whose store currency is the euro (the Shopify double's setting): the
 * install form's lowercase shop, renaming and disabling rulesets, amounts in
 * the shop's currency, and the product-rule editor's hint and rate preview.
 */
const suite = appAndBrowser({ currency: 'EUR' });

const dismissToasts = async (page: Page) => {
  const dismiss = page.getByRole('button', { name: 'Dismiss notification' });
  // A toast leaving by itself (after 5 s) cannot be clicked: its going is what is waited for.
  while ((await dismiss.count()) > 0)
    await dismiss
      .first()
      .click({ timeout: 2_000 })
      .catch(() => undefined);
};

// The catalog and the currency need the shop's access token.
beforeAll(() => installThroughDouble(suite.app), 180_000);

test('the install form sends a subdomain typed in capitals in lowercase, without a hint', async () => {
  const { page, problems } = await openPage(suite.browser, suite.app, '/install', {
    embedded: false,
  });
  // Not install.int.spec.ts's my-store: the two files may run at once on the shared app.
  await page.getByLabel('Store subdomain').fill('  Polish-Store.MyShopify.COM ');
  await page.getByLabel('Purchase email').fill('me@example.com');
  await page.getByLabel('Purchase email').blur();
  expect(await page.getByText('Should end with .myshopify.com').count()).toBe(0);
  const sent = page.waitForRequest((req) => req.url().endsWith('/api/install'));
  await page.getByRole('button', { name: 'Install' }).click();
  expect(JSON.parse((await sent).postData() ?? '{}')).toEqual({
    shop: 'polish-store.myshopify.com',
    email: 'me@example.com',
  });
  expect(problems.filter((p) => !p.includes('request outside the app: http://127.0.0.1:'))).toEqual(
    [],
  );
  await page.context().close();
});

test('renames a ruleset from the list and the editor title, and disables all global rules', async () => {
  const { body: created } = await suite.app.api('/api/global-rules', {
    json: { name: 'Summer' },
  });
  const id = created.rule.id as string;
  expect((await suite.app.api(`/api/global-rules/${id}/toggle`)).body.status).toBe(true);

  const { page, problems } = await openPage(suite.browser, suite.app, '/global-rules');
  await page.getByRole('button', { name: 'Rename Summer' }).click();
  const rename = page.getByRole('dialog', { name: 'Rename ruleset' });
  const field = rename.getByLabel('Ruleset name');
  expect(await field.inputValue()).toBe('Summer');
  await field.fill('   ');
  await rename.getByRole('button', { name: 'Rename' }).click();
  await rename.getByText('Please enter a ruleset name').waitFor();
  await field.fill('High summer');
  await rename.getByRole('button', { name: 'Rename' }).click();
  await page.getByText('High summer', { exact: true }).waitFor();
  expect(
    (await suite.app.api(`/api/global-rules/rules?globalRuleId=${id}`)).body.globalRule.name,
  ).toBe('High summer');

  await page.getByRole('button', { name: 'Disable High summer' }).click();
  const confirm = page.getByRole('dialog', { name: 'Disable “High summer”?' });
  await confirm.getByRole('heading', { name: 'No ruleset will be enabled' }).waitFor();
  await confirm.getByText(/^Checkout will get no Ratesmith rates\./).waitFor();
  await dismissToasts(page);
  await screenshot(page, 'global-rules-disable-all');
  await expectNoAxeViolations(page, 'the disable-all confirmation');
  await confirm.getByRole('button', { name: 'Disable' }).click();
  await page.getByRole('button', { name: 'Disabled: enable High summer' }).waitFor();
  expect((await suite.app.api('/api/global-rules')).body.shop.global_rule_id).toBeNull();
  expect(await page.getByRole('button', { name: /^Disable / }).count()).toBe(0);

  // The editor's title renames too.
  await page.getByRole('button', { name: 'Edit High summer' }).click();
  await page.getByRole('heading', { name: 'Global Rules: High summer' }).waitFor();
  await page.getByRole('button', { name: 'Rename' }).first().click();
  const titled = page.getByRole('dialog', { name: 'Rename ruleset' });
  await titled.getByLabel('Ruleset name').fill('Autumn');
  await titled.getByRole('button', { name: 'Rename' }).click();
  await page.getByRole('heading', { name: 'Global Rules: Autumn' }).waitFor();
  await expectNoAxeViolations(page, 'the ruleset editor after a rename');
  expect(problems).toEqual([]);
  await page.context().close();
});

test('the product-rule editor says what conditions count and previews the draft in the shop’s currency', async () => {
  const picker = await suite.app.api('/api/product-rules/shopify-products');
  const first = picker.body.products.edges[0].node as { id: string; title: string };
  const added = await suite.app.api('/api/product-rules/add-shopify-product', {
    json: { products: [first.id] },
  });
  expect(added.status).toBe(200);
  const list = await suite.app.api('/api/product-rules');
  const rule = list.body.products.data.find((r: { name: string }) => r.name === first.title);
  const saved = await suite.app.api(`/api/product-rules/update/${rule.id}`, {
    json: {
      rules: [
        draftFilter({
          name: 'Per unit',
          raw_query: draftGroup([
            draftCondition('cart_retail_product_count', 'greater_or_equal', 1),
          ]),
          action_type: 2,
          action_data: 1.5,
        }),
      ],
    },
  });
  expect(saved.status).toBe(200);

  const { page, problems } = await openPage(
    suite.browser,
    suite.app,
    `/edit-product-rule/${rule.id}`,
  );
  await page.getByRole('heading', { name: 'Rule #1: Per unit' }).waitFor();
  await page.getByText(/Conditions count the whole cart/).waitFor();
  const preview = page.getByRole('region', { name: 'Rate preview' });
  // The amount inputs carry the shop's currency sign, the preview its code.
  await page.getByRole('region', { name: 'Rule #1' }).getByText('€').first().waitFor();
  await preview.getByLabel('Currency').and(page.locator('[value="EUR"]')).waitFor();

  // An unsaved edit is what is quoted.
  await page
    .getByRole('region', { name: 'Rule #1' })
    .getByLabel('Amount', { exact: true })
    .fill('2');
  await preview.getByLabel('Price').fill('12.50');
  await preview.getByLabel('Quantity').fill('3');
  await preview.getByLabel('Product (optional)').selectOption({ label: first.title });
  await preview.getByRole('button', { name: 'Preview rates' }).click();
  const result = page.getByRole('region', { name: 'Preview result' });
  await result.getByText('Regular fee: €6.00').waitFor();
  // The rule's cell holds its name and, on the next line, its sentence.
  const rows = (await result.locator('tbody tr').allInnerTexts()).map((row) =>
    row
      .split(/\s*\t\s*/)
      .join(' | ')
      .replace(/\s*\n\s*/g, ' / '),
  );
  expect(rows).toEqual([
    `1 | Product rule (${first.title}): Per unit / If the cart has at least 1 retail item → add €2.00 per retail item of this product, then stop. | Yes | Add Shipping Fee For Each Retail Product | €0.00 | €6.00 | Stopped`,
  ]);
  await dismissToasts(page);
  await screenshot(page, 'product-rule-preview');
  await expectNoAxeViolations(page, 'the product rule editor with its preview');
  expect(problems).toEqual([]);
  await page.context().close();
});

test('the picker adds a product limited to some of its variants, and the list says which', async () => {
  const { page, problems } = await openPage(suite.browser, suite.app, '/product-rules');
  await page.getByRole('button', { name: 'Add Product' }).first().click();
  const picker = page.getByRole('dialog', { name: 'Add products' });
  await picker.getByRole('checkbox', { name: /^Organic Hoodie/ }).check();
  const variants = picker.getByRole('group', { name: /Variants of Organic Hoodie/ });
  // Prices in the shop's currency, weights (620 g, 682 g) in its unit (kilograms here).
  await variants.getByRole('checkbox', { name: 'M · 0.62 kg (€49.00)' }).uncheck();
  expect(await variants.getByRole('checkbox', { name: 'L · 0.68 kg (€49.00)' }).isChecked()).toBe(
    true,
  );
  await screenshot(page, 'product-picker-variants');
  await expectNoAxeViolations(page, 'the picker with a product’s variants');
  await picker.getByRole('button', { name: 'Add 1 product' }).click();
  const row = page.getByRole('row', { name: /Organic Hoodie/ });
  await row.getByText('1 of 2 variants: L').waitFor();
  const list = await suite.app.api('/api/product-rules');
  const hoodie = list.body.products.data.find((r: { name: string }) => r.name === 'Organic Hoodie');
  expect(hoodie.variant_ids).toHaveLength(1);
  await expectNoAxeViolations(page, 'the product rules list with variants');
  expect(problems).toEqual([]);
  await page.context().close();
});
