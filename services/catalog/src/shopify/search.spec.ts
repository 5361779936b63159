import { toShopifyQuery } from './search';

describe('toShopifyQuery', () => {
  it('makes every word a prefix term and drops extra spaces', () => {
    expect(toShopifyQuery('  coffee   mu ')).toBe('coffee* mu*');
    expect(toShopifyQuery('')).toBe('');
    expect(toShopifyQuery('   ')).toBe('');
  });

  it('escapes search syntax so typed text is only ever text', () => {
    expect(toShopifyQuery('title:hat')).toBe('title\\:hat*');
    expect(toShopifyQuery('-sale')).toBe('\\-sale*');
    expect(toShopifyQuery('usb-c')).toBe('usb\\-c*');
    expect(toShopifyQuery('"quoted" (group)')).toBe('\\"quoted\\"* \\(group\\)*');
    expect(toShopifyQuery('a\\b*')).toBe('a\\\\b\\**');
  });

  it('reads AND, OR and NOT as words, not operators', () => {
    expect(toShopifyQuery('salt OR pepper')).toBe('salt* or* pepper*');
    expect(toShopifyQuery('NOT')).toBe('not*');
    expect(toShopifyQuery('Or')).toBe('Or*');
  });

  it('bounds the length', () => {
    expect(toShopifyQuery('x'.repeat(500))).toBe(`${'x'.repeat(200)}*`);
  });
});
