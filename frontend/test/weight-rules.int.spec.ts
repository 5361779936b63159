import type { Page } from 'playwright-core';
import { expectNoAxeViolations, appAndBrowser, openPage, screenshot } from './harness';

/**
 * Weight, state/province and postal-code rules (docs/rates.md) in Chromium
 * against the app as `npm start` runs it: the editor builds each new field and
 * the weight-step action, Save All keeps them, and the rate preview quotes a
 * cart with weights to a state and postal code, showing what each step compared.
 */
const suite = appAndBrowser();

const errorItems = (page: Page) =>
  page
    .locator('.Polaris-Banner', { hasText: 'Please fix the following errors:' })
    .getByRole('listitem');

test('builds weight, state/province and postal-code rules, saves and previews them', async () => {
  const { body: created } = await suite.app.api('/api/global-rules', { json: { name: 'Weights' } });
  const id = created.rule.id as string;
  const { page, problems } = await openPage(suite.browser, suite.app, `/edit-global-rule/${id}`);
  await page.getByText('No rules found').waitFor();

  // Rule 1: over 1.5 lb to California, or to postcodes 90000-96199: 2.00 a started kilogram.
  await page.getByRole('button', { name: 'Add Rule' }).click();
  const first = page.getByRole('region', { name: 'Rule #1' });
  await first.getByLabel('Rule name').fill('Heavy to California');
  const conditions = first.getByRole('region', { name: 'Conditions' });
  await conditions.getByRole('button', { name: 'Add condition' }).click();
  const row = (n: number) =>
    conditions.getByRole('group', { name: 'Condition', exact: true }).nth(n);
  await row(0).getByLabel('Field').selectOption('cart_weight');
  await row(0).getByLabel('Operator').selectOption('greater_than');
  await row(0).getByLabel('Weight', { exact: true }).fill('1.5');
  await row(0).getByLabel('Weight unit').selectOption('lb');

  await conditions.getByRole('button', { name: 'Add group' }).click();
  const group = first.getByRole('region', { name: 'Group (level 2)' });
  await group.getByRole('button', { name: 'OR' }).click();
  const inGroup = (n: number) =>
    group.getByRole('group', { name: 'Condition', exact: true }).nth(n);
  await inGroup(0).getByLabel('Field').selectOption('shipping_region');
  // The province list follows the country.
  await inGroup(0).getByLabel('State or province country').selectOption('CA');
  await inGroup(0).getByLabel('State or province', { exact: true }).selectOption('CA-ON');
  await inGroup(0).getByLabel('State or province country').selectOption('US');
  await inGroup(0).getByLabel('State or province', { exact: true }).selectOption('US-CA');
  await group.getByRole('button', { name: 'Add condition' }).click();
  await inGroup(1).getByLabel('Field').selectOption('shipping_postal_code');
  await inGroup(1).getByLabel('Operator').selectOption('between');
  await inGroup(1).getByLabel('Postal code from').fill('96199');
  await inGroup(1).getByLabel('Postal code to').fill('90000');
  await first.getByLabel('Action').selectOption('6');
  await first.getByLabel('Amount', { exact: true }).fill('2');
  await first.getByLabel('After this rule matches').selectOption('1');
  expect(await errorItems(page).allTextContents()).toEqual([
    'Rule #1: Shipping Postal Code between needs two postal codes of 1 to 10 letters or digits, of the same length, the first not after the second',
    'Rule #1 needs a weight step',
  ]);
  await inGroup(1).getByLabel('Postal code from').fill('90000');
  await inGroup(1).getByLabel('Postal code to').fill('96199');
  await first.getByLabel('Weight step', { exact: true }).fill('1');
  await first.getByLabel('Weight step unit').selectOption('kg');
  await expect(errorItems(page).count()).resolves.toBe(0);

  // Rule 2: postal codes not starting with 100, and not to New York: 1.00 once.
  await page.getByRole('button', { name: 'Add Rule' }).click();
  const second = page.getByRole('region', { name: 'Rule #2' });
  await second.getByLabel('Rule name').fill('Not Manhattan');
  await second.getByRole('button', { name: 'Add condition' }).click();
  await second.getByLabel('Field').selectOption('shipping_postal_code');
  await second.getByLabel('Operator').selectOption('not_starts_with');
  await second.getByLabel('Postal code', { exact: true }).fill('100');
  await second.getByRole('button', { name: 'Add condition' }).click();
  const secondRow = second.getByRole('group', { name: 'Condition', exact: true }).nth(1);
  await secondRow.getByLabel('Field').selectOption('shipping_region');
  await secondRow.getByLabel('Operator').selectOption('not_equal');
  await secondRow.getByLabel('State or province', { exact: true }).selectOption('US-NY');
  await second.getByLabel('Action').selectOption('1');
  await second.getByLabel('Amount', { exact: true }).fill('1');
  await expect(errorItems(page).count()).resolves.toBe(0);
  await expectNoAxeViolations(page, 'the ruleset editor with weight, region and postal rules');

  await page.getByRole('button', { name: 'Save All' }).click();
  await page.getByText('Rules saved.').waitFor();
  const { body } = await suite.app.api(`/api/global-rules/rules?globalRuleId=${id}`);
  expect(body.rules).toMatchObject([
    {
      name: 'Heavy to California',
      action_type: 6,
      action_data: 2,
      action_weight_step: { amount: 1, unit: 'kg' },
      raw_query: {
        rules: [
          { field: 'cart_weight', operator: 'greater_than', value: { amount: 1.5, unit: 'lb' } },
          {
            condition: 'OR',
            rules: [
              { field: 'shipping_region', operator: 'equal', value: 'US-CA' },
              {
                field: 'shipping_postal_code',
                operator: 'between',
                value: { from: '90000', to: '96199' },
              },
            ],
          },
        ],
      },
    },
    {
      name: 'Not Manhattan',
      raw_query: {
        rules: [
          { field: 'shipping_postal_code', operator: 'not_starts_with', value: '100' },
          { field: 'shipping_region', operator: 'not_equal', value: 'US-NY' },
        ],
      },
    },
  ]);

  // The preview: 2 x 1.2 kg to Beverly Hills (zip+4). 2400 g > 680 g; US-CA: 3 steps x 2.00 = 6.00,
  // then 1.00: 7.00.
  const preview = page.getByRole('region', { name: 'Rate preview' });
  const result = page.getByRole('region', { name: 'Preview result' });
  // A rule's cell holds its name and, on the next line, its sentence.
  const tidy = async () =>
    (await result.locator('tbody tr').allInnerTexts()).map((r) =>
      r
        .split(/\s*\t\s*/)
        .join(' | ')
        .replace(/\s*\n\s*/g, ' / '),
    );
  const heavy =
    'Global: Heavy to California / If the cart weighs more than 1.5 lb and either shipping to California or the postal code is between 90000 and 96199 → add $2.00 for each started 1 kg of the cart weight.';
  const manhattan =
    'Global: Not Manhattan / If the postal code does not start with 100 and not shipping to New York → add $1.00, then stop.';
  await preview.getByLabel('State or province').selectOption({ label: 'California' });
  await preview.getByLabel('Postal code').fill('90210-1234');
  await preview.getByLabel('Price').fill('30');
  await preview.getByLabel('Quantity').fill('2');
  // Typed in the shop's unit (the double's default, kilograms): 1,200 g a unit.
  await preview.getByLabel('Weight (kg each)').fill('1.2');
  await preview.getByRole('button', { name: 'Preview rates' }).click();
  await result.getByText('Shipping: $7.00').waitFor();
  expect(await tidy()).toEqual([
    `1 | ${heavy} | Yes | Add Shipping Fee For Each Weight Step | $0.00 | $6.00 | Continued`,
    `2 | ${manhattan} | Yes | Add Single Shipping Fee | $6.00 | $7.00 | Stopped`,
  ]);
  await result
    .getByText(
      'Step 1 compared: cart weight 2.4 kg, region US-CA, postal code 902101234, 2.4 kg in 3 weight step(s).',
    )
    .waitFor();
  await result.getByText('Step 2 compared: region US-CA, postal code 902101234.').waitFor();
  await screenshot(page, 'edit-global-rule-weight');
  await expectNoAxeViolations(page, 'the rate preview of weight rules');

  // No province and a New York code: the region equals nothing; rule 2 does not match.
  await preview.getByLabel('State or province').selectOption('');
  await preview.getByLabel('Postal code').fill('10001');
  await preview.getByLabel('Weight (kg each)').fill('0.3');
  await preview.getByRole('button', { name: 'Preview rates' }).click();
  await result.getByText('No rates').waitFor();
  expect(await tidy()).toEqual([
    `1 | ${heavy} | No | — | $0.00 | $0.00 | Skipped`,
    `2 | ${manhattan} | No | — | $0.00 | $0.00 | Skipped`,
  ]);
  await result
    .getByText('Step 1 compared: cart weight 600 g, region none, postal code 10001.')
    .waitFor();
  expect(problems).toEqual([]);
});
