import { validateFilters } from '@ratesmith/contracts';
import { draftCondition, draftFilter, draftGroup } from '@ratesmith/contracts/testing';
import { mongo } from 'mongoose';
import { packValue } from './packed-values';
import type { NewVersion } from './version-history.repository';

/**
 * The storage cost of one version (docs/architecture.md#versions): the BSON
 * size of its line and of its packed content, for the largest ruleset the
 * limits allow (100 filters x 50 conditions) and for a typical one.
 */
const CONDITIONS = [
  () => draftCondition('cart_price', 'greater_or_equal', 49.99),
  () => draftCondition('shipping_country', 'equal', 'US'),
  () => draftCondition('cart_weight', 'less_than', { amount: 2.5, unit: 'kg' }),
  () => draftCondition('shipping_postal_code', 'between', { from: '10000', to: '19999' }),
  () => draftCondition('cart_retail_product_count', 'greater_than', 3),
];

function ruleset(filters: number, conditions: number) {
  const drafts = Array.from({ length: filters }, (_, f) =>
    draftFilter({
      name: `Filter number ${f + 1}`,
      raw_query: draftGroup(
        Array.from({ length: conditions }, (_, c) => CONDITIONS[c % CONDITIONS.length]!()),
      ),
    }),
  );
  const { errors, filters: canonical } = validateFilters(drafts, 'ruleset');
  expect(errors).toEqual([]);
  return canonical;
}

/** The BSON size of a version as stored: its line, and its content packed in its own document. */
function versionBytes(filters: ReturnType<typeof ruleset>): number {
  const shop = 'a-typical-shop-name.myshopify.com';
  const id = `${shop}/ruleset/6650f0c2a1b2c3d4e5f60718/42`;
  const line: Omit<NewVersion, 'content'> & Record<string, unknown> = {
    _id: id,
    shop,
    kind: 'ruleset',
    subjectId: '6650f0c2a1b2c3d4e5f60718',
    subjectName: 'Summer shipping',
    number: 42,
    at: new Date(),
    user: '123456789012',
    event: 'save',
    summary: '3 filter changes: 1 added, 2 changed',
    checkout: true,
    contentId: id,
  };
  const content = {
    _id: id,
    shop,
    content_packed: packValue({ name: 'Summer shipping', filters }),
  };
  return mongo.BSON.calculateObjectSize(line) + mongo.BSON.calculateObjectSize(content);
}

describe('the size of one kept version', () => {
  it.each([
    ['the largest ruleset (100 filters x 50 conditions)', 100, 50, 150_000],
    ['a typical ruleset (5 filters x 3 conditions)', 5, 3, 6_000],
  ])('%s stays under its documented bound', (_name, filters, conditions, bound) => {
    const bytes = versionBytes(ruleset(filters, conditions));
    process.stdout.write(`${filters} x ${conditions}: ${bytes} bytes\n`);
    expect(bytes).toBeLessThan(bound);
  });
});
