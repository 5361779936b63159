import type { Page } from 'playwright-core';
import { appAndBrowser, atBothWidths, DESKTOP, openPage } from './harness';

/**
 * A saved ruleset is not live until it is enabled: after the first save in a
 * shop where none is, the editor says so and enables it from there; enabling
 * another while one is live names both first. axe-core on each state,
 * screenshots at 1280 × 800 and 390 × 844.
 */
const suite = appAndBrowser();

const dismissToasts = async (page: Page) => {
  const dismiss = page.getByRole('button', { name: 'Dismiss notification' });
  while ((await dismiss.count()) > 0)
    await dismiss
      .first()
      .click({ timeout: 2_000 })
      .catch(() => undefined);
};

const flat = (name: string, amount: number) => ({
  name,
  raw_query: { condition: 'AND', rules: [] },
  action_type: 1,
  action_data: amount,
});

it('offers to enable a saved ruleset when none is live, and names both rulesets before switching', async () => {
  const { app, browser } = suite;
  const created = await app.api('/api/global-rules', { json: { name: 'Winter' } });
  const winter = created.body.rule.id as string;
  expect((await app.api('/api/global-rules')).body.shop.global_rule_id).toBeNull();

  const { page, problems } = await openPage(browser, app, `/edit-global-rule/${winter}`, {
    viewport: DESKTOP,
  });
  await page.getByRole('heading', { name: 'Global Rules: Winter' }).waitFor();
  await page.getByRole('button', { name: 'Add Rule' }).click();
  const rule = page.getByRole('region', { name: 'Rule #1' });
  await rule.getByLabel('Rule name').fill('Flat');
  await rule.getByLabel('Action').selectOption('1');
  await rule.getByLabel('Amount', { exact: true }).last().fill('5');
  await page.getByRole('button', { name: 'Save All' }).click();

  // Saved, and not live: the editor says what checkout gets and enables it from here.
  const banner = page.getByText('This ruleset is not live');
  await banner.waitFor();
  await page.getByText('Until a ruleset is enabled, checkout gets no Ratesmith rates.').waitFor();
  await dismissToasts(page);
  await atBothWidths(page, 'edit-global-rule-not-live', 'the editor of a saved ruleset not live');
  await page.getByRole('button', { name: 'Enable it' }).click();
  await page.getByTestId('toasts').getByText('Ruleset enabled.').waitFor();
  await banner.waitFor({ state: 'detached' });
  expect((await app.api('/api/global-rules')).body.shop.global_rule_id).toBe(winter);
  // In use now: the counts line no longer says it is not.
  await page.getByText('Not in use at checkout: no counts.').waitFor({ state: 'detached' });

  // Another ruleset, enabled from the list while Winter is live: both are named first.
  const other = await app.api('/api/global-rules', { json: { name: 'Summer' } });
  const summer = other.body.rule.id as string;
  await app.api(`/api/global-rules/update/${summer}`, { json: { rules: [flat('Flat', 9)] } });
  await page.getByRole('link', { name: 'Global Rules' }).click();
  await page.getByRole('button', { name: 'Disabled: enable Summer' }).click();
  const confirm = page.getByRole('dialog', { name: 'Enable “Summer”?' });
  await confirm
    .getByText(
      'Checkout will use the rules of “Summer” instead of those of “Winter”. “Winter” will be disabled; it and its rules are kept.',
    )
    .waitFor();
  await dismissToasts(page);
  await atBothWidths(
    page,
    'global-rules-switch-enabled',
    'the confirmation of enabling another ruleset',
  );
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await confirm.waitFor({ state: 'detached' });
  expect((await app.api('/api/global-rules')).body.shop.global_rule_id).toBe(winter);

  await page.getByRole('button', { name: 'Disabled: enable Summer' }).click();
  await confirm.getByRole('button', { name: 'Enable' }).click();
  await page.getByRole('button', { name: 'Summer is enabled' }).waitFor();
  expect((await app.api('/api/global-rules')).body.shop.global_rule_id).toBe(summer);
  expect(problems).toEqual([]);
  await page.context().close();
});
