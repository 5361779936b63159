import type { Page } from 'playwright-core';
import { appAndBrowser, expectNoAxeViolations, openPage, screenshot } from './harness';

/**
 * The checks that never block in Chromium against the app
 * as `npm start` runs it: two rules typed so that a cart price of exactly 50
 * gets neither, the sentence next to the second rule, a fee typed in cents,
 * and Save All still saving.
 */
const suite = appAndBrowser();

const rule = (page: Page, n: number) =>
  page.getByRole('region', { name: `Rule #${n}`, exact: true });
const warningsOf = (page: Page, n: number) =>
  rule(page, n)
    .getByRole('list', { name: `Warnings for rule #${n}` })
    .getByRole('listitem');

async function addPriceRule(page: Page, name: string, operator: string, fee: string) {
  await page.getByRole('button', { name: 'Add Rule' }).click();
  const card = page.getByRole('region', { name: /^Rule #\d$/ }).last();
  await card.getByLabel('Rule name').fill(name);
  await card.getByRole('button', { name: 'Add condition' }).click();
  await card.getByLabel('Field').selectOption('cart_price');
  await card.getByLabel('Operator').selectOption(operator);
  await card.getByLabel('Amount', { exact: true }).first().fill('50');
  await card.getByLabel('Action').selectOption('1');
  await card.getByLabel('Amount', { exact: true }).last().fill(fee);
}

test('warns next to the rule it concerns, as the merchant types, and still saves', async () => {
  const created = await suite.app.api('/api/global-rules', { json: { name: 'Checked' } });
  expect(created).toMatchObject({ status: 200, body: { rule: { name: 'Checked' } } });
  const id = created.body.rule.id as string;
  const { page, problems } = await openPage(suite.browser, suite.app, `/edit-global-rule/${id}`);
  await page.getByText('No rules found').waitFor();

  await addPriceRule(page, 'Small carts', 'less_than', '8');
  await addPriceRule(page, 'Big carts', 'greater_than', '4999');

  const gap =
    'Warning: A Cart Price of exactly 50 matches neither this rule (“Cart Price greater than 50”) nor Rule #1 (“Cart Price less than 50”): did you mean “or equal”?';
  const cents =
    'Warning: The fee 4999 looks like an amount in cents: fees are typed in currency units (49.99, not 4999).';
  await warningsOf(page, 2).nth(1).waitFor();
  await expect(warningsOf(page, 2).allTextContents()).resolves.toEqual([gap, cents]);
  await expect(warningsOf(page, 1).count()).resolves.toBe(0);
  // Warnings never block: no error list, and Save All is enabled.
  await expect(page.getByText('Please fix the following errors:').count()).resolves.toBe(0);
  const saveAll = page.getByRole('button', { name: 'Save All' });
  expect(await saveAll.getAttribute('aria-disabled')).not.toBe('true');
  await screenshot(page, 'edit-global-rule-warnings');
  await expectNoAxeViolations(page, 'the ruleset editor with warnings');

  // Saved as typed, warnings and all.
  await saveAll.click();
  await page.getByText('Rules saved.').waitFor();
  const { body } = await suite.app.api(`/api/global-rules/rules?globalRuleId=${id}`);
  expect(
    (body.rules as any[]).map((f) => [f.name, f.raw_query.rules[0].operator, f.action_data]),
  ).toEqual([
    ['Small carts', 'less_than', 8],
    ['Big carts', 'greater_than', 4999],
  ]);

  // The fix, as typed: "or equal" and the fee in currency units; the sentences go.
  await rule(page, 2).getByLabel('Operator').selectOption('greater_or_equal');
  await rule(page, 2).getByLabel('Amount', { exact: true }).last().fill('49.99');
  await rule(page, 2)
    .getByRole('list', { name: 'Warnings for rule #2' })
    .waitFor({ state: 'detached' });
  expect(problems).toEqual([]);
});
