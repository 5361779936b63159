import type { Page } from 'playwright-core';
import { expectNoAxeViolations, appAndBrowser, openPage, screenshot, settledText } from './harness';

/**
 * The ruleset editor in Chromium against the app as `npm start` runs it:
 * filters with a nested group, the error list (on blur and on Save All, never
 * before anything is typed), a value's message at its input, Save All,
 * reorder, and the unsaved-changes prompt.
 */
const suite = appAndBrowser();

const errorItems = (page: Page) =>
  page
    .locator('.Polaris-Banner', { hasText: 'Please fix the following errors:' })
    .getByRole('listitem');

async function createRuleset(name: string): Promise<string> {
  const res = await suite.app.api('/api/global-rules', { json: { name } });
  // The whole answer on failure (a 503 says which service did not answer in time).
  expect(res).toMatchObject({ status: 200, body: { rule: { name } } });
  return res.body.rule.id as string;
}

async function savedFilters(id: string) {
  const { body } = await suite.app.api(`/api/global-rules/rules?globalRuleId=${id}`);
  return body.rules as any[];
}

test('builds filters with a nested group, shows the errors until they are fixed, saves', async () => {
  const id = await createRuleset('Summer');
  const { page, problems } = await openPage(suite.browser, suite.app, `/edit-global-rule/${id}`);
  await page.getByRole('heading', { name: 'Global Rules: Summer' }).waitFor();
  await page.getByText('No rules found').waitFor();
  await expectNoAxeViolations(page, 'the ruleset editor, empty');

  await page.getByRole('button', { name: 'Add Rule' }).click();
  // Nothing is said before anything is typed; Save All says what is missing, and sends nothing.
  await page.getByLabel('Rule name').waitFor();
  await expect(errorItems(page).count()).resolves.toBe(0);
  const saveAll = page.getByRole('button', { name: 'Save All' });
  await saveAll.click();
  // Without conditions a rule matches every cart: only its name is missing.
  expect(await errorItems(page).allTextContents()).toEqual(['Rule #1 needs a name']);
  expect(await saveAll.getAttribute('aria-disabled')).toBe('true');
  expect(await savedFilters(id)).toEqual([]);

  await page.getByLabel('Rule name').fill('Canada big carts');
  const conditions = page.getByRole('region', { name: 'Conditions' });
  await conditions.getByRole('button', { name: 'Add condition' }).click();
  await conditions.getByLabel('Country').fill('Cana');
  await page.getByRole('option', { name: 'Canada (CA)' }).click();

  await conditions.getByRole('button', { name: 'Add group' }).click();
  const group = page.getByRole('region', { name: 'Group (level 2)' });
  await group.getByRole('button', { name: 'OR' }).click();
  await group.getByLabel('Field').selectOption('cart_price');
  await group.getByLabel('Operator').selectOption('greater_than');
  await group.getByRole('button', { name: 'Add condition' }).click();
  await group.getByLabel('Field').nth(1).selectOption('cart_product_count_of_x_price');
  await group.getByLabel('Count').fill('2');
  await page.getByLabel('Action').selectOption('2');
  expect(await errorItems(page).allTextContents()).toEqual([
    'Rule #1 has 2 incomplete condition(s)',
    'Rule #1 needs an amount',
  ]);
  expect(await saveAll.getAttribute('aria-disabled')).toBe('true');
  await screenshot(page, 'edit-global-rule-errors');
  await expectNoAxeViolations(page, 'the ruleset editor with a nested group and errors');

  await group.getByLabel('Amount', { exact: true }).fill('100');
  await group.getByLabel('Amount ($X)').fill('0');
  await page.getByLabel('Amount', { exact: true }).last().fill('1.50');
  await page.getByLabel('Apply To').selectOption('1');
  await expect(errorItems(page).count()).resolves.toBe(0);

  await saveAll.click();
  await page.getByText('Rules saved.').waitFor();
  const [saved] = await savedFilters(id);
  expect(saved).toMatchObject({
    name: 'Canada big carts',
    action_type: 2,
    action_data: 1.5,
    global_rule_action: 1,
    raw_query: {
      condition: 'AND',
      rules: [
        { type: 'condition', field: 'shipping_country', operator: 'equal', value: 'CA' },
        {
          type: 'group',
          condition: 'OR',
          rules: [
            { field: 'cart_price', operator: 'greater_than', value: 100 },
            { field: 'cart_product_count_of_x_price', value: { count: 2, amount: 0 } },
          ],
        },
      ],
    },
  });
  expect(problems).toEqual([]);
});

test('reorders filters, asks before leaving with unsaved changes, and shows what was saved', async () => {
  const id = await createRuleset('Winter');
  const { page, problems } = await openPage(suite.browser, suite.app, `/edit-global-rule/${id}`);
  const editorUrl = page.url();
  await page.getByText('No rules found').waitFor();

  for (const [name, amount] of [
    ['Flat fee', '5'],
    ['Big carts', '0'],
  ] as const) {
    await page.getByRole('button', { name: 'Add Rule' }).click();
    const rule = page.getByRole('region', { name: /^Rule #\d$/ }).last();
    await rule.getByLabel('Rule name').fill(name);
    await rule.getByRole('button', { name: 'Add condition' }).click();
    await rule.getByLabel('Field').selectOption('cart_price');
    await rule.getByLabel('Operator').selectOption('greater_or_equal');
    await rule
      .getByLabel('Amount', { exact: true })
      .first()
      .fill(amount === '0' ? '200' : '0');
    await rule.getByLabel('Action').selectOption('5');
    await rule.getByLabel('Amount', { exact: true }).last().fill(amount);
    await rule.getByLabel('After this rule matches').selectOption('1');
  }
  await page.getByRole('button', { name: 'Move rule #2 up' }).click();
  await page.getByRole('heading', { name: 'Rule #1: Big carts' }).waitFor();
  await page.getByRole('button', { name: 'Save All' }).click();
  await page.getByText('Rules saved.').waitFor();
  expect((await savedFilters(id)).map((f) => f.name)).toEqual(['Big carts', 'Flat fee']);

  // An unsaved edit: leaving asks first; Stay keeps the page, Leave goes.
  await page.getByLabel('Rule name').first().fill('Big carts (edited)');
  await page.getByRole('link', { name: 'Dashboard' }).click();
  const dialog = page.getByRole('dialog', { name: 'Leave without saving?' });
  await dialog.waitFor();
  await expectNoAxeViolations(page, 'the unsaved changes dialog');
  await dialog.getByRole('button', { name: 'Stay' }).click();
  await dialog.waitFor({ state: 'hidden' });
  expect(new URL(page.url()).pathname).toBe(`/edit-global-rule/${id}`);
  await page.getByRole('link', { name: 'Dashboard' }).click();
  await dialog.getByRole('button', { name: 'Leave page' }).click();
  await page.waitForURL((url) => url.pathname === '/dashboard');

  await page.getByRole('heading', { name: 'Dashboard' }).waitFor();

  // Opened again: the saved order and names, not the abandoned edit.
  await page.goto(editorUrl);
  await page.getByRole('heading', { name: 'Rule #1: Big carts' }).waitFor();
  await page.getByRole('heading', { name: 'Rule #2: Flat fee' }).waitFor();
  await screenshot(page, 'edit-global-rule');
  await expectNoAxeViolations(page, 'the ruleset editor with saved rules');
  expect(problems).toEqual([]);
});

test('says nothing before typing, what to type at the input on blur, and never rounds an invalid value in the sentence', async () => {
  const id = await createRuleset('Autumn');
  const { page, problems } = await openPage(suite.browser, suite.app, `/edit-global-rule/${id}`);
  await page.getByText('No rules found').waitFor();
  await page.getByRole('button', { name: 'Add Rule' }).click();
  const rule = page.getByRole('region', { name: 'Rule #1' });
  await rule.getByLabel('Rule name').waitFor();
  // No red before anything is typed: no error list, no field marked.
  await expect(errorItems(page).count()).resolves.toBe(0);
  await expect(page.getByText('Please fix the following errors:').count()).resolves.toBe(0);
  await expect(page.locator('[aria-invalid="true"]').count()).resolves.toBe(0);

  await rule.getByLabel('Rule name').fill('Small carts');
  await rule.getByRole('button', { name: 'Add condition' }).click();
  await rule.getByLabel('Field').selectOption('cart_price');
  await rule.getByLabel('Operator').selectOption('less_than');
  const amount = rule
    .getByRole('region', { name: 'Conditions' })
    .getByLabel('Amount', { exact: true });
  await amount.fill('4,99');
  // Not while typing.
  expect(await amount.getAttribute('aria-invalid')).not.toBe('true');
  await amount.blur();
  const message = 'Cart Price must use a dot for decimals: 4.99, not 4,99';
  expect(await amount.getAttribute('aria-invalid')).toBe('true');
  const describedBy = (await amount.getAttribute('aria-describedby')) ?? '';
  const described = await page.evaluate(
    (ids) =>
      ids
        .split(' ')
        .map((i) => document.getElementById(i)?.textContent ?? '')
        .join(' '),
    describedBy,
  );
  expect(described).toContain(message);
  expect(await errorItems(page).allTextContents()).toContain(`Rule #1: ${message}`);
  await rule.getByLabel('Action').selectOption('1');
  await rule.getByLabel('Amount', { exact: true }).last().fill('3');
  await screenshot(page, 'edit-global-rule-value-error');
  await expectNoAxeViolations(page, 'the ruleset editor with a value error at its input');

  // An amount of 3 decimals: the sentence shows it as typed, never "$5.00".
  await amount.fill('4.999');
  const sentence = rule.locator('[data-rule-sentence]');
  expect(
    await settledText(sentence, 'If the cart is less than 4.999 → add $3.00, then stop.'),
  ).toBe('If the cart is less than 4.999 → add $3.00, then stop.');
  await amount.fill('4.99');
  expect(
    await settledText(sentence, 'If the cart is less than $4.99 → add $3.00, then stop.'),
  ).toBe('If the cart is less than $4.99 → add $3.00, then stop.');
  expect(await amount.getAttribute('aria-invalid')).not.toBe('true');
  await expect(errorItems(page).count()).resolves.toBe(0);

  await page.setViewportSize({ width: 390, height: 844 });
  await amount.fill('4,99');
  await amount.blur();
  await rule.getByText(message).first().waitFor();
  await screenshot(page, 'edit-global-rule-value-error-390');
  await expectNoAxeViolations(page, 'the ruleset editor with a value error at 390 px');
  expect(problems).toEqual([]);
  await page.context().close();
});
