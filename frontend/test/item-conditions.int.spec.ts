import { expectNoAxeViolations, appAndBrowser, openPage, screenshot } from './harness';

/**
 * Item conditions in Chromium against the app as `npm start` runs it: the
 * product tag picker lists the demo store's own tags from Shopify (the double),
 * a pick fills the value, the rule reads as a sentence, and Save All keeps it.
 */
const suite = appAndBrowser();

test("picks one of the store's tags, reads it as a sentence, saves it", async () => {
  const created = await suite.app.api('/api/global-rules', { json: { name: 'Oversize' } });
  expect(created.status).toBe(200);
  const id = created.body.rule.id as string;
  const { page, problems } = await openPage(suite.browser, suite.app, `/edit-global-rule/${id}`);
  await page.getByRole('heading', { name: 'Global Rules: Oversize' }).waitFor();

  await page.getByRole('button', { name: 'Add Rule' }).click();
  await page.getByLabel('Rule name').fill('Oversize ships for $40');
  const conditions = page.getByRole('region', { name: 'Conditions' });
  await conditions.getByRole('button', { name: 'Add condition' }).click();
  await conditions.getByLabel('Field').selectOption('cart_item_product_tag');
  await conditions.getByLabel('Operator').selectOption('all_equal');
  await conditions.getByLabel('Product Tag').fill('over');
  await page.getByRole('option', { name: 'oversize' }).click();
  expect(await conditions.getByLabel('Product Tag').inputValue()).toBe('oversize');
  await page.getByText('If every item is tagged “oversize”').first().waitFor();

  await page.getByLabel('Action').selectOption('5');
  await page.getByLabel('Amount', { exact: true }).last().fill('40');
  // A value no product has yet is kept, with a word that it matches nothing today.
  await conditions.getByRole('button', { name: 'Add condition' }).click();
  await conditions.getByLabel('Field').nth(1).selectOption('cart_item_vendor');
  await conditions.getByLabel('Operator').nth(1).selectOption('none_equal');
  await conditions.getByLabel('Product Vendor').fill('Nobody & Sons');
  await page
    .getByText('No product has this vendor yet: the rule keeps it and matches once one does.')
    .waitFor();
  // The merchant moves on (Polaris leaves the box's active option pointing into the list
  // it just emptied while the box keeps focus; at rest the page is checked).
  await page.keyboard.press('Tab');
  await screenshot(page, 'edit-global-rule-item-conditions');
  await expectNoAxeViolations(page, 'the ruleset editor with item conditions');

  await page.getByRole('button', { name: 'Save All' }).click();
  await page.getByText('Rules saved.').waitFor();
  const { body } = await suite.app.api(`/api/global-rules/rules?globalRuleId=${id}`);
  expect(body.rules[0].raw_query.rules).toEqual([
    expect.objectContaining({
      field: 'cart_item_product_tag',
      operator: 'all_equal',
      value: 'oversize',
    }),
    expect.objectContaining({
      field: 'cart_item_vendor',
      operator: 'none_equal',
      value: 'Nobody & Sons',
    }),
  ]);
  expect(problems).toEqual([]);
});
