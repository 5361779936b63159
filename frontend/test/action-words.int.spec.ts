import { draftFilter, draftGroup } from '@ratesmith/contracts/testing';
import type { Page } from 'playwright-core';
import { appAndBrowser, expectNoAxeViolations, openPage, screenshot } from './harness';

/**
 * What an action does to the cart's one fee, said in each scope (docs/rates.md,
 * "Actions"): a product rule's Set Shipping Fee sets the whole cart's fee, and
 * the editor says so under the Action select and in the rule's sentence; a
 * ruleset's says it replaces what the rules before it made. axe-core on each
 * editor, screenshots of the product rule's at 1280 × 800 and 390 × 844.
 */
const suite = appAndBrowser();

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** The Action select's help, as a screen reader reads it (its description). */
const actionHelp = (page: Page) =>
  page
    .getByRole('region', { name: 'Rule #1' })
    .getByLabel('Action')
    .evaluate((select) =>
      (select.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent ?? '')
        .join(' '),
    );
const sentence = (page: Page) =>
  page.getByRole('region', { name: 'Rule #1' }).locator('[data-rule-sentence]').innerText();

const setFee = (name: string) =>
  draftFilter({ name, raw_query: draftGroup([]), action_type: 5, action_data: 25 });

it("says a product rule's Set Shipping Fee sets the whole cart's fee, and a ruleset's what it replaces", async () => {
  const { app, browser } = suite;
  const picker = await app.api('/api/product-rules/shopify-products');
  const product = picker.body.products.edges[0].node as { id: string; title: string };
  expect(
    (await app.api('/api/product-rules/add-shopify-product', { json: { products: [product.id] } }))
      .status,
  ).toBe(200);
  const rule = (await app.api('/api/product-rules')).body.products.data.find(
    (r: { name: string }) => r.name === product.title,
  );
  expect(
    (
      await app.api(`/api/product-rules/update/${rule.id}`, {
        json: { rules: [setFee('Fixed fee')] },
      })
    ).status,
  ).toBe(200);

  let { page, problems } = await openPage(browser, app, `/edit-product-rule/${rule.id}`, {
    viewport: DESKTOP,
  });
  await page.getByRole('heading', { name: 'Rule #1: Fixed fee' }).waitFor();
  const productWords =
    "For every cart → set the whole cart's shipping to $25.00, replacing what the ruleset and the rules before it made, then stop.";
  await page.getByText(productWords).waitFor();
  expect(await sentence(page)).toBe(productWords);
  expect(await actionHelp(page)).toBe(
    "Sets the whole cart's shipping to the amount, not only this product's part: it replaces what the ruleset and the rules before it made. To charge for this product on top, choose an Add action.",
  );
  await screenshot(page, 'edit-product-rule-set-fee');
  await expectNoAxeViolations(page, "a product rule's Set Shipping Fee");
  await page.setViewportSize(PHONE);
  await screenshot(page, 'edit-product-rule-set-fee-390');
  await expectNoAxeViolations(page, "a product rule's Set Shipping Fee at 390 px");
  await page.setViewportSize(DESKTOP);

  // An Add action instead: once for the cart, however many of the product it holds.
  await page.getByRole('region', { name: 'Rule #1' }).getByLabel('Action').selectOption('1');
  expect(await actionHelp(page)).toBe(
    "Adds the amount to the cart's shipping once, however many of this product the cart holds.",
  );
  expect(await sentence(page)).toBe(
    "For every cart → add $25.00 to the cart's shipping once, then stop.",
  );

  // A ruleset's Set Shipping Fee: the cart's fee, replacing what the rules before it made.
  const created = await app.api('/api/global-rules', { json: { name: 'Flat' } });
  const id = created.body.rule.id as string;
  await app.api(`/api/global-rules/update/${id}`, { json: { rules: [setFee('Flat fee')] } });
  // A page of its own: the product rule's draft has an unsaved change, which leaving would ask about.
  expect(problems).toEqual([]);
  await page.context().close();
  const ruleset = await openPage(browser, app, `/edit-global-rule/${id}`, { viewport: DESKTOP });
  page = ruleset.page;
  problems = ruleset.problems;
  await page.getByRole('heading', { name: 'Rule #1: Flat fee' }).waitFor();
  const rulesetWords =
    "For every cart → set the cart's shipping to $25.00, replacing what the rules before it made, then stop.";
  await page.getByText(rulesetWords).waitFor();
  expect(await actionHelp(page)).toBe(
    "Sets the cart's shipping to the amount, replacing what the rules before it made; rules after it and product rules can still change it.",
  );
  await expectNoAxeViolations(page, "a ruleset's Set Shipping Fee");
  expect(problems).toEqual([]);
  await page.context().close();
});
