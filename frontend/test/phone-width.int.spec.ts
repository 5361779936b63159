import type { Page } from 'playwright-core';
import { draftCondition, draftFilter, draftGroup } from '@ratesmith/contracts/testing';
import { DEMO_CATALOG } from '@ratesmith/shopify-double';
import { readGlossary, wordsNotToUse } from './glossary';
import { appAndBrowser, expectNoAxeViolations, openPage, screenshot } from './harness';

/**
 * Every page at a phone's width (390 × 844): each control a merchant can reach is
 * inside the part of the page they can see or scroll to. A control pushed past
 * the right edge of the window, or clipped by a card that hides what overflows
 * it, cannot be used on a phone; this names each such control. And the text each
 * page shows holds no word docs/glossary.md rules out.
 */
const suite = appAndBrowser();
const PHONE = { width: 390, height: 844 };

/** Controls outside the window's width or clipped by an ancestor that hides overflow. */
function unreachableControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const controls = document.querySelectorAll<HTMLElement>(
      'a[href], button, input, select, textarea, [role="button"], [role="checkbox"], [role="combobox"], [tabindex]:not([tabindex="-1"])',
    );
    const width = document.documentElement.clientWidth;
    const problems: string[] = [];
    const name = (el: HTMLElement) =>
      `${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? el.textContent ?? (el as HTMLInputElement).value ?? '').trim().slice(0, 40)}"`;
    for (const control of controls) {
      const box = control.getBoundingClientRect();
      const style = getComputedStyle(control);
      // Not rendered, or hidden on purpose (a visually hidden input behind its label).
      if (box.width === 0 || box.height === 0 || style.visibility === 'hidden') continue;
      if (box.width <= 1 && box.height <= 1) continue;
      let clipped = false;
      let scrollable = false;
      let visuallyHidden = false;
      for (let el = control.parentElement; el && el !== document.body; el = el.parentElement) {
        const overflow = getComputedStyle(el).overflowX;
        if (overflow === 'auto' || overflow === 'scroll') {
          // Reachable by scrolling that container sideways.
          scrollable = true;
          break;
        }
        if (overflow === 'hidden' || overflow === 'clip') {
          const frame = el.getBoundingClientRect();
          // Visually hidden on purpose (Polaris' VisuallyHidden: a 1 px box): a form's
          // submit-on-Enter button, a drop zone's file input behind its label.
          if (frame.width <= 1 && frame.height <= 1) {
            visuallyHidden = true;
            break;
          }
          if (box.left < frame.left - 1 || box.right > frame.right + 1) {
            clipped = true;
            break;
          }
        }
      }
      if (visuallyHidden) continue;
      if (clipped) problems.push(`${name(control)} is clipped by its card`);
      else if (!scrollable && (box.left < -1 || box.right > width + 1))
        problems.push(
          `${name(control)} lies outside the window (${Math.round(box.left)} to ${Math.round(box.right)} of ${width} px)`,
        );
    }
    return problems;
  });
}

const glossary = readGlossary();

/** The page's text as shown; on the FAQ, each answer opened in turn (opening one closes the others). */
async function shownText(page: Page, path: string): Promise<string> {
  const texts = [await page.evaluate(() => document.body.innerText)];
  if (path === '/faq') {
    const questions = page.locator('button[aria-expanded][aria-controls]');
    const count = await questions.count();
    expect(count).toBeGreaterThan(0);
    for (let i = 0; i < count; i++) {
      await questions.nth(i).click();
      const answer = page.getByRole('region', { name: await questions.nth(i).innerText() });
      await answer.waitFor();
      texts.push(await answer.innerText());
    }
  }
  return texts.join('\n');
}

/** Each line of the text that holds a word not to use, with that word. */
const linesNotInGlossary = (text: string) =>
  text
    .split('\n')
    .flatMap((line) => wordsNotToUse(line, glossary).map((word) => `${word} in "${line.trim()}"`));

let rulesetId = '';
let productRuleId = '';
beforeAll(async () => {
  const { body } = await suite.app.api('/api/global-rules', { json: { name: 'Phone' } });
  rulesetId = body.rule.id as string;
  // A filter as a merchant builds one on a phone: several conditions and a nested group.
  const saved = await suite.app.api(`/api/global-rules/update/${rulesetId}`, {
    json: {
      rules: [
        draftFilter({
          name: 'Heavy parcels to the west coast',
          raw_query: draftGroup([
            draftCondition('cart_price', 'greater_or_equal', 49.99),
            draftCondition('cart_weight', 'less_than', { amount: 2.5, unit: 'kg' }),
            draftGroup(
              [
                draftCondition('shipping_country', 'equal', 'US'),
                draftCondition('shipping_postal_code', 'between', { from: '90000', to: '96199' }),
              ],
              'OR',
            ),
          ]),
        }),
      ],
    },
  });
  if (saved.status !== 200) throw new Error(`save: ${saved.status}`);
  await suite.app.api('/api/product-rules/add-shopify-product', {
    json: { products: [String(DEMO_CATALOG[0]!.id)] },
  });
  const listed = await suite.app.api('/api/product-rules');
  productRuleId = String(listed.body.products.data[0]?.id ?? '');
  if (!productRuleId) throw new Error('no product rule was added');
  await suite.app.api(`/api/product-rules/update/${productRuleId}`, {
    json: { rules: [draftFilter({ name: 'Oversize item' })] },
  });
}, 120_000);

test.each([
  ['Dashboard', '/'],
  ['Global rules', '/global-rules'],
  ['the ruleset editor', '/edit-global-rule/:ruleset'],
  ['Product rules', '/product-rules'],
  ['the product rule editor', '/edit-product-rule/:product'],
  ['Recent checkouts', '/recent-checkouts'],
  ['Shipping zones', '/shipping-zones'],
  ['Settings', '/settings'],
  ['Backup', '/backup'],
  ['FAQ', '/faq'],
])(
  "%s: every control is within reach at 390 px, and its text uses the glossary's words",
  async (label, path) => {
    const target = path.replace(':ruleset', rulesetId).replace(':product', productRuleId);
    const { page } = await openPage(suite.browser, suite.app, target, { viewport: PHONE });
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(500);
    expect(await unreachableControls(page)).toEqual([]);
    expect(linesNotInGlossary(await shownText(page, path))).toEqual([]);
    if (path.startsWith('/edit-global-rule')) {
      await screenshot(page, 'phone-edit-global-rule');
      await expectNoAxeViolations(page, `${label} at 390 px`);
    }
    await page.context().close();
  },
  90_000,
);
