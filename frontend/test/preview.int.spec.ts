import type { DraftGroup, FilterDraft } from '@ratesmith/contracts/filters';
import { draftCondition, draftFilter, draftGroup } from '@ratesmith/contracts/testing';

import { expectNoAxeViolations, appAndBrowser, openPage, screenshot } from './harness';

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
  const tidy = (rows: string[]) => rows.map((row) => row.split(/\s*\t\s*/).join(' | '));

  await preview.getByLabel('Price').fill('12.50');
  await preview.getByLabel('Quantity').fill('2');
  await preview.getByRole('button', { name: 'Preview rates' }).click();
  await result.getByText('Shipping: $5.00').waitFor();
  expect(tidy(await steps())).toEqual([
    '1 | Global: Flat fee | Yes | Set Shipping Fee | $0.00 | $5.00 | Continued',
    '2 | Global: Canada surcharge | No | — | $5.00 | $5.00 | Skipped',
  ]);

  await preview.getByLabel('Destination country').fill('Canada');
  await page.getByRole('option', { name: 'Canada (CA)' }).click();
  await preview.getByRole('button', { name: 'Preview rates' }).click();
  await result.getByText('Shipping: $8.00').waitFor();
  expect(tidy(await steps())).toEqual([
    '1 | Global: Flat fee | Yes | Set Shipping Fee | $0.00 | $5.00 | Continued',
    '2 | Global: Canada surcharge | Yes | Add Single Shipping Fee | $5.00 | $8.00 | Stopped',
  ]);

  // An unsaved edit is what the preview quotes.
  const first = page.getByRole('region', { name: 'Rule #1' });
  await first.getByLabel('Amount', { exact: true }).last().fill('7');
  await preview.getByRole('button', { name: 'Preview rates' }).click();
  await result.getByText('Shipping: $10.00').waitFor();
  await result.getByText('Regular fee: $10.00').waitFor();
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
