import type { Page } from 'playwright-core';
import {
  expectNoAxeViolations,
  appAndBrowser,
  installThroughDouble,
  openPage,
  screenshot,
} from './harness';

/**
 * Product rules in Chromium against the app as `npm start` runs it (the
 * catalog service in front of the local Shopify double's demo catalog):
 * picking products across pages and a search, the list, toggle, delete, and
 * the filter editor at product scope. The store keeps weights in pounds.
 */
const suite = appAndBrowser({ weightUnit: 'POUNDS' });

/** A checked product's weights are read apart from the page: wait for every one. */
const weightsRead = (page: Page) =>
  page.waitForFunction(() => !document.body.innerText.includes('Loading weights'));

// The catalog needs the shop's access token.
beforeAll(() => installThroughDouble(suite.app), 180_000);

test('adds products through the picker across pages, then toggles, deletes and edits rules', async () => {
  const { page, problems } = await openPage(suite.browser, suite.app, '/product-rules');
  await page.getByText('No product rules yet').waitFor();
  await expectNoAxeViolations(page, 'the product rules list, empty');

  await page.getByRole('button', { name: 'Add Product' }).first().click();
  const picker = page.getByRole('dialog', { name: 'Add products' });
  const boxes = picker.getByRole('checkbox');
  await boxes.first().waitFor();
  expect(await boxes.count()).toBe(15);
  const addButton = picker.getByRole('button', { name: /^Add \d+ products?$/ });
  expect(await addButton.count()).toBe(0);

  // A tile's checkbox is named by its product's title.
  const labelOf = (i: number) =>
    boxes
      .nth(i)
      .evaluate((input) => document.querySelector(`label[for="${input.id}"]`)?.textContent ?? '');
  const firstOnPage1 = await labelOf(0);
  const secondOnPage1 = await labelOf(1);
  await boxes.nth(0).check();
  // By name: a checked product with several variants lists their checkboxes after its own.
  await picker.getByRole('checkbox', { name: secondOnPage1, exact: true }).check();
  await picker.getByRole('button', { name: 'Add 2 products' }).waitFor();
  await weightsRead(page);
  await screenshot(page, 'product-picker');
  await expectNoAxeViolations(page, 'the product picker with products picked');

  await picker.getByRole('button', { name: 'Next' }).click();
  await picker.getByRole('checkbox', { name: firstOnPage1 }).waitFor({ state: 'detached' });
  await boxes.first().waitFor();
  expect(await boxes.count()).toBe(15);
  const firstOnPage2 = await labelOf(0);
  await boxes.nth(0).check();

  await picker.getByRole('button', { name: 'Previous' }).click();
  await picker.getByRole('checkbox', { name: firstOnPage1 }).waitFor();
  expect(await picker.getByRole('checkbox', { name: firstOnPage1 }).isChecked()).toBe(true);

  // A search starts again at page 1 and keeps what was picked.
  await picker.getByLabel('Search products').fill('mug');
  await picker.getByRole('checkbox', { name: firstOnPage1 }).waitFor({ state: 'detached' });
  await picker.getByRole('checkbox', { name: 'Ceramic Coffee Mug' }).check();
  await picker.getByRole('button', { name: 'Add 4 products' }).click();
  await picker.waitFor({ state: 'hidden' });

  const names = [firstOnPage1, secondOnPage1, firstOnPage2, 'Ceramic Coffee Mug'];
  for (const name of names) await page.locator('td').getByText(name, { exact: true }).waitFor();
  const { body } = await suite.app.api('/api/product-rules');
  expect(body.products.data.map((p: any) => p.name).sort()).toEqual([...names].sort());
  await screenshot(page, 'product-rules');
  await expectNoAxeViolations(page, 'the product rules list with rules');

  // Toggle: the rule reads Disabled after the call and the reload.
  await page.getByRole('button', { name: `Disable ${firstOnPage1}` }).click();
  const enable = page.getByRole('button', { name: `Enable ${firstOnPage1}`, exact: true });
  await enable.waitFor();
  await page
    .getByRole('row')
    .filter({ has: enable })
    .getByText('Disabled', { exact: true })
    .waitFor();

  // Delete asks first; Cancel keeps the rule.
  await page.getByRole('button', { name: `Delete ${secondOnPage1}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete product rule?' });
  await confirm.waitFor();
  await expectNoAxeViolations(page, 'the delete product rule dialog');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await confirm.waitFor({ state: 'hidden' });
  await page.getByRole('button', { name: `Delete ${secondOnPage1}` }).click();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await page.locator('td').getByText(secondOnPage1, { exact: true }).waitFor({ state: 'detached' });

  // Edit: the same filter editor at product scope.
  await page.getByRole('button', { name: 'Edit Ceramic Coffee Mug' }).click();
  await page.getByRole('heading', { name: 'Product Rules: Ceramic Coffee Mug' }).waitFor();
  const id = new URL(page.url()).pathname.split('/').pop()!;
  await page.getByRole('button', { name: 'Add Rule' }).click();
  await page.getByLabel('Rule name').fill('Two or more mugs');
  await page.getByRole('button', { name: 'Add condition' }).click();
  await page.getByLabel('Field').selectOption('cart_retail_product_count');
  await page.getByLabel('Operator').selectOption('greater_or_equal');
  await page.getByLabel('Count', { exact: true }).fill('2');
  const action = page.getByLabel('Action');
  expect(await action.locator('option').first().textContent()).toBe(
    'Make Shipping Free For This Item',
  );
  await action.selectOption('2');
  expect(await page.getByLabel('Apply To').count()).toBe(0);
  await page.getByLabel('Amount', { exact: true }).fill('1.25');
  // The earlier toasts would cover Save All in the screenshot (they go by themselves after 5 s).
  const dismiss = page.getByRole('button', { name: 'Dismiss notification' });
  // A toast leaving by itself (after 5 s) cannot be clicked: its going is what is waited for.
  while ((await dismiss.count()) > 0)
    await dismiss
      .first()
      .click({ timeout: 2_000 })
      .catch(() => undefined);
  await screenshot(page, 'edit-product-rule');
  await expectNoAxeViolations(page, 'the product rule editor');
  await page.getByRole('button', { name: 'Save All' }).click();
  await page.getByText('Rules saved.').waitFor();

  const saved = await suite.app.api(`/api/product-rules/${id}/rules`);
  expect(saved.body.rules).toEqual([
    expect.objectContaining({
      name: 'Two or more mugs',
      action_type: 2,
      action_data: 1.25,
      raw_query: expect.objectContaining({
        rules: [
          expect.objectContaining({
            field: 'cart_retail_product_count',
            operator: 'greater_or_equal',
            value: 2,
          }),
        ],
      }),
    }),
  ]);
  expect(problems).toEqual([]);
});

test("the picker shows each variant's weight in the shop's unit once a product is checked", async () => {
  const { page, problems } = await openPage(suite.browser, suite.app, '/product-rules');
  await page.getByRole('button', { name: 'Add Product' }).first().click();
  const picker = page.getByRole('dialog', { name: 'Add products' });
  await picker.getByLabel('Search products').fill('hoodie');
  const hoodie = picker.getByRole('checkbox', { name: /^Organic Hoodie/ });
  await hoodie.check();
  const variants = picker.getByRole('group', { name: /Variants of Organic Hoodie/ });
  // Shopify keeps 620 g and 682 g; the store's unit is the pound.
  await variants.getByRole('checkbox', { name: 'M · 1.37 lb ($49.00)' }).waitFor();
  await variants.getByRole('checkbox', { name: 'L · 1.5 lb ($49.00)' }).waitFor();
  await weightsRead(page);
  await screenshot(page, 'product-picker-weights');
  await expectNoAxeViolations(page, 'the picker with variant weights');
  // Unchecked, the weights go with the variants; checked again, they are read again.
  await hoodie.uncheck();
  await variants.waitFor({ state: 'detached' });
  await hoodie.check();
  await variants.getByRole('checkbox', { name: 'L · 1.5 lb ($49.00)' }).waitFor();
  await picker.getByRole('button', { name: 'Cancel' }).click();
  await picker.waitFor({ state: 'hidden' });
  expect(problems).toEqual([]);
});
