import { sentCondition, sentFilter, sentGroup } from '@ratesmith/contracts/testing';
import type { RunningApp } from './harness';

/**
 * The large ruleset of the editor's tests and bench: `count` filters of 11 conditions each (8
 * conditions and a nested OR group of 2), every one valid, saved through the
 * API as a client would send them. The browser benchmark
 * (frontend/bench/editor-large.bench.ts) and the large-ruleset browser test
 * open the editor on it.
 */
export function largeRuleset(count: number) {
  return Array.from({ length: count }, (_, i) =>
    sentFilter({
      name: `Zone ${String(i + 1).padStart(3, '0')} ${i % 2 === 0 ? 'heavy carts' : 'light carts'}`,
      raw_query: {
        condition: 'AND',
        rules: [
          sentCondition('shipping_country', 'not_equal', 'AQ'),
          sentCondition('cart_price', 'greater_or_equal', String(i)),
          sentCondition('cart_price', 'less_than', '1000'),
          sentCondition('cart_retail_product_count', 'greater_than', '0'),
          sentCondition('cart_retail_product_count', 'less_or_equal', '500'),
          sentCondition('cart_free_product_count', 'equal', '0'),
          sentCondition('cart_product_count_of_x_price', 'greater_or_equal', {
            count: '1',
            amount: '9.99',
          }),
          sentCondition('cart_price', 'less_or_equal', '9999'),
          sentGroup('OR', [
            sentCondition('shipping_country', 'equal', 'US'),
            sentCondition('shipping_country', 'equal', 'CA'),
          ]),
        ],
      },
    }),
  );
}

/** A new ruleset named `name` holding `largeRuleset(count)`; answers its id. */
export async function saveLargeRuleset(
  app: RunningApp,
  name: string,
  count: number,
): Promise<string> {
  const created = await app.api('/api/global-rules', { json: { name } });
  if (created.status !== 200) throw new Error(`create ruleset: ${JSON.stringify(created)}`);
  const id = created.body.rule.id as string;
  const saved = await app.api(`/api/global-rules/update/${id}`, {
    json: { rules: largeRuleset(count) },
  });
  if (saved.status !== 200) throw new Error(`save ${count} filters: ${JSON.stringify(saved)}`);
  return id;
}
