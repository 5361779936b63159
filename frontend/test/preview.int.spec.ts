import type { DraftGroup, FilterDraft } from '@ratesmith/contracts/filters';
import { draftCondition, draftFilter, draftGroup } from '@ratesmith/contracts/testing';

import { expectNoAxeViolations, appAndBrowser, openPage, screenshot, settledText } from './harness';

/**
 * The rate preview in the ruleset editor, in Chromium against the app as
 * `npm start` runs it (the rate engine answers): rates and each step, for the
 * saved filters and for unsaved edits.
 */
const suite = appAndBrowser();

const condition = draftCondition;
const filter = (name: string, rules: DraftGroup['rules'], action: Partial<FilterDraft>) =>
  draftFilter({ name, raw_query: draftGroup(rules), ...action });

test('previews the rates of a cart step by step, with unsaved edits', async () => {
  const { body: created } = await suite.app.api('/api/global-rules', { json: { name: 'Preview' } });
  const id = created.rule.id as string;
  const saved = await suite.app.api(`/api/global-rules/update/${id}`, {
    json: {
      rules: [
        filter('Flat fee', [condition('cart_price', 'greater_or_equal', 0)], {
          action_type: 5,
          action_data: 5,
          post_processing_action_type: 1,
        }),
        filter('Canada surcharge', [condition('shipping_country', 'equal', 'CA')], {
          action_type: 1,
          action_data: 3,
          post_processing_action_type: 0,
        }),
      ],
    },
  });
  expect(saved.status).toBe(200);

  const { page, problems } = await openPage(suite.browser, suite.app, `/edit-global-rule/${id}`);
  await page.getByRole('heading', { name: 'Rule #2: Canada surcharge' }).waitFor();
  const preview = page.getByRole('region', { name: 'Rate preview' });
  const result = page.getByRole('region', { name: 'Preview result' });
  const steps = () => result.locator('tbody tr').allInnerTexts();
  // A rule's cell holds its name and, on the next line, its sentence.
  const tidy = (rows: string[]) =>
    rows.map((row) =>
      row
        .split(/\s*\t\s*/)
        .join(' | ')
        .replace(/\s*\n\s*/g, ' / '),
    );
  const flat = (fee: string) =>
    `Global: Flat fee / If the cart is at least $0.00 → set the cart's shipping to ${fee}, replacing what the rules before it made.`;
  const canada = 'Global: Canada surcharge / If shipping to Canada → add $3.00, then stop.';

  await preview.getByLabel('Price').fill('12.50');
  await preview.getByLabel('Quantity').fill('2');
  await preview.getByRole('button', { name: 'Preview rates' }).click();
  await result.getByText('Shipping: $5.00').waitFor();
  expect(tidy(await steps())).toEqual([
    `1 | ${flat('$5.00')} | Yes | Set Shipping Fee | $0.00 | $5.00 | Continued`,
    `2 | ${canada} | No | — | $5.00 | $5.00 | Skipped`,
  ]);

  await preview.getByLabel('Destination country').fill('Canada');
  await page.getByRole('option', { name: 'Canada (CA)' }).click();
  await preview.getByRole('button', { name: 'Preview rates' }).click();
  await result.getByText('Shipping: $8.00').waitFor();
  expect(tidy(await steps())).toEqual([
    `1 | ${flat('$5.00')} | Yes | Set Shipping Fee | $0.00 | $5.00 | Continued`,
    `2 | ${canada} | Yes | Add Single Shipping Fee | $5.00 | $8.00 | Stopped`,
  ]);

  // An unsaved edit is what the preview quotes.
  const first = page.getByRole('region', { name: 'Rule #1' });
  await first.getByLabel('Amount', { exact: true }).last().fill('7');
  await preview.getByRole('button', { name: 'Preview rates' }).click();
  await result.getByText('Shipping: $10.00').waitFor();
  await result.getByText('Regular fee: $10.00').waitFor();
  expect(tidy(await steps())[0]).toBe(
    `1 | ${flat('$7.00')} | Yes | Set Shipping Fee | $0.00 | $7.00 | Continued`,
  );
  await screenshot(page, 'rate-preview');
  await expectNoAxeViolations(page, 'the rate preview with results');

  // A cart nothing matches: no rates at all.
  await first.getByLabel('Operator').selectOption('greater_than');
  await first.getByLabel('Amount', { exact: true }).first().fill('1000');
  await preview.getByLabel('Destination country').fill('Germany');
  await page.getByRole('option', { name: 'Germany (DE)' }).click();
  await preview.getByRole('button', { name: 'Preview rates' }).click();
  await result.getByText('No rates').waitFor();
  await result.getByText('Nothing matched.').waitFor();
  await expectNoAxeViolations(page, 'the rate preview with no rates');
  expect(problems).toEqual([]);
});

test('says each rule as a sentence, as it is typed, and in the step table', async () => {
  const { body: created } = await suite.app.api('/api/global-rules', {
    json: { name: 'Sentences' },
  });
  const id = created.rule.id as string;
  const saved = await suite.app.api(`/api/global-rules/update/${id}`, {
    json: {
      rules: [
        filter('Canada', [condition('shipping_country', 'equal', 'CA')], {
          action_type: 0,
          action_data: null,
        }),
        filter(
          'Everyone else',
          [condition('cart_weight', 'less_than', { amount: 2, unit: 'kg' })],
          {
            action_type: 2,
            action_data: 1.5,
            post_processing_action_type: 1,
          },
        ),
      ],
    },
  });
  expect(saved.status).toBe(200);

  const { page, problems } = await openPage(suite.browser, suite.app, `/edit-global-rule/${id}`);
  const rule = (n: number) => page.getByRole('region', { name: `Rule #${n}` });
  const sentence = (n: number) => rule(n).locator('[data-rule-sentence]').innerText();
  await page.getByRole('heading', { name: 'Rule #2: Everyone else' }).waitFor();
  expect(await sentence(1)).toBe(
    "If shipping to Canada → make the cart's shipping free, replacing what the rules before it made, then stop.",
  );
  // The amount gets its currency sign once the shop's formats are in (after the first render
  // on a loaded machine).
  const second = 'If the cart weighs less than 2 kg → add $1.50 per retail item.';
  expect(await settledText(rule(2).locator('[data-rule-sentence]'), second)).toBe(second);

  // A condition typed into rule #1: its sentence follows each change.
  const conditions = rule(1).getByRole('region', { name: 'Conditions' });
  await conditions.getByRole('button', { name: 'Add condition' }).click();
  const added = conditions.getByRole('group', { name: 'Condition' }).last();
  await added.getByLabel('Field').selectOption('cart_price');
  await added.getByLabel('Operator').selectOption('greater_or_equal');
  expect(await sentence(1)).toBe(
    "If shipping to Canada and the cart is at least … → make the cart's shipping free, replacing what the rules before it made, then stop.",
  );
  await added.getByLabel('Amount').pressSequentially('200');
  await page
    .getByText(
      "If shipping to Canada and the cart is at least $200.00 → make the cart's shipping free, replacing what the rules before it made, then stop.",
    )
    .waitFor();
  expect(await sentence(2)).toBe('If the cart weighs less than 2 kg → add $1.50 per retail item.');

  // The step table says the same of the rule that ran.
  const preview = page.getByRole('region', { name: 'Rate preview' });
  const result = page.getByRole('region', { name: 'Preview result' });
  await preview.getByLabel('Destination country').fill('Canada');
  await page.getByRole('option', { name: 'Canada (CA)' }).click();
  await preview.getByLabel('Price').fill('250');
  await preview.getByRole('button', { name: 'Preview rates' }).click();
  await result.getByText('Shipping: $0.00').waitFor();
  const firstRule = result.locator('tbody tr').first().locator('td, th').nth(1);
  expect((await firstRule.innerText()).split(/\s*\n\s*/)).toEqual([
    'Global: Canada',
    "If shipping to Canada and the cart is at least $200.00 → make the cart's shipping free, replacing what the rules before it made, then stop.",
  ]);
  await screenshot(page, 'filter-sentences');
  await expectNoAxeViolations(page, 'the editor and preview with rule sentences');
  expect(problems).toEqual([]);
});

test('a rule for every cart that blocks shipping: built in the editor, saved, previewed', async () => {
  const { body: created } = await suite.app.api('/api/global-rules', { json: { name: 'Blocked' } });
  const id = created.rule.id as string;
  const { page, problems } = await openPage(suite.browser, suite.app, `/edit-global-rule/${id}`);
  await page.getByText('No rules found').waitFor();
  await page.getByRole('button', { name: 'Add Rule' }).click();
  const rule = page.getByRole('region', { name: 'Rule #1' });
  await rule.getByLabel('Rule name').fill('Nowhere');
  // No condition: the rule matches every cart, and says so.
  await rule.getByText(/^Every cart: with no conditions this rule matches every cart/).waitFor();
  await rule.getByLabel('Action').selectOption('7');
  await rule.getByText(/^When this rule matches, checkout gets no shipping rate/).waitFor();
  expect(await rule.getByLabel('After this rule matches').count()).toBe(0);
  expect(await rule.locator('[data-rule-sentence]').innerText()).toBe(
    'For every cart → block shipping: checkout gets no rates.',
  );
  await page.getByRole('button', { name: 'Save All' }).click();
  await page.getByText('Rules saved.').first().waitFor();
  const stored = await suite.app.api(`/api/global-rules/rules?globalRuleId=${id}`);
  expect(stored.body.rules).toEqual([
    expect.objectContaining({
      name: 'Nowhere',
      action_type: 7,
      action_data: null,
      raw_query: expect.objectContaining({ rules: [] }),
    }),
  ]);

  const preview = page.getByRole('region', { name: 'Rate preview' });
  const result = page.getByRole('region', { name: 'Preview result' });
  await preview.getByLabel('Price').fill('12.50');
  await preview.getByRole('button', { name: 'Preview rates' }).click();
  await result.getByText('Shipping blocked').waitFor();
  await result.getByText('Blocked: no rates.').waitFor();
  expect(await result.locator('tbody tr').first().innerText()).toMatch(
    /Block Shipping[\s\S]*Stopped/,
  );
  await screenshot(page, 'editor-block-every-cart');
  await expectNoAxeViolations(page, 'a rule for every cart that blocks shipping, previewed');
  expect(problems).toEqual([]);
});

test('a list of postal codes typed with commas becomes chips, is saved as a list and previewed', async () => {
  const { body: created } = await suite.app.api('/api/global-rules', { json: { name: 'Alaska' } });
  const id = created.rule.id as string;
  const { page, problems } = await openPage(suite.browser, suite.app, `/edit-global-rule/${id}`);
  await page.getByText('No rules found').waitFor();
  await page.getByRole('button', { name: 'Add Rule' }).click();
  const rule = page.getByRole('region', { name: 'Rule #1' });
  await rule.getByLabel('Rule name').fill('No shipping to a few codes');
  const conditions = rule.getByRole('region', { name: 'Conditions' });
  await conditions.getByRole('button', { name: 'Add condition' }).click();
  const added = conditions.getByRole('group', { name: 'Condition' }).last();
  await added.getByLabel('Field').selectOption('shipping_postal_code');
  await added.getByLabel('Operator').selectOption('in');
  const codes = added.getByLabel('Postal codes');
  await codes.pressSequentially('99501, 99502, 96801');
  await codes.press('Enter');
  for (const code of ['99501', '99502', '96801']) {
    await added.getByRole('button', { name: `Remove ${code}` }).waitFor();
  }
  await added.getByText('3 of 500. A comma or a new line adds a value.').waitFor();
  await rule.getByLabel('Action').selectOption('7');
  expect(await rule.locator('[data-rule-sentence]').innerText()).toBe(
    'If the postal code is 99501, 99502 or 96801 → block shipping: checkout gets no rates.',
  );
  await screenshot(page, 'editor-postal-list');
  await expectNoAxeViolations(page, 'a postal-code list as chips');
  await page.getByRole('button', { name: 'Save All' }).click();
  await page.getByText('Rules saved.').first().waitFor();
  const stored = await suite.app.api(`/api/global-rules/rules?globalRuleId=${id}`);
  expect(stored.body.rules[0].raw_query.rules[0]).toMatchObject({
    field: 'shipping_postal_code',
    operator: 'in',
    value: ['99501', '99502', '96801'],
  });

  // Opened again, the list is chips still.
  await page.reload();
  await page.getByRole('button', { name: 'Remove 96801' }).waitFor();
  const preview = page.getByRole('region', { name: 'Rate preview' });
  const result = page.getByRole('region', { name: 'Preview result' });
  await preview.getByLabel('Price').fill('12.50');
  await preview.getByLabel('Postal code').fill('99502');
  await preview.getByRole('button', { name: 'Preview rates' }).click();
  await result.getByText('Shipping blocked').waitFor();
  await preview.getByLabel('Postal code').fill('99503');
  await preview.getByRole('button', { name: 'Preview rates' }).click();
  await result.getByText('Nothing matched.').waitFor();
  expect(await result.getByText('Shipping blocked').count()).toBe(0);
  expect(problems).toEqual([]);
});
