import { render, screen, waitFor } from '@testing-library/react';
import { ApiProvider } from '../api';
import { fakeGateway } from '../test-utils';
import { currencySymbol, formatAmount, formatCents } from './money';
import { useShopCurrency } from './useShopCurrency';

describe('the money helper', () => {
  it('formats with the browser’s number formatting in the given currency', () => {
    expect(formatAmount(12.5, 'USD', 'en-US')).toBe('$12.50');
    expect(formatAmount(12.5, 'EUR', 'en-US')).toBe('€12.50');
    expect(formatAmount(1234.5, 'EUR', 'de-DE')).toBe('1.234,50\u00a0€');
    expect(formatAmount(1200, 'JPY', 'en-US')).toBe('¥1,200');
    expect(formatCents('1999', 'GBP', 'en-GB')).toBe('£19.99');
    expect(formatCents(500, 'CAD', 'en-US')).toBe('CA$5.00');
  });

  it('shows the number alone while the currency is unknown', () => {
    expect(formatAmount(5, null, 'en-US')).toBe('5.00');
    expect(formatCents(123456, undefined, 'en-US')).toBe('1,234.56');
  });

  it('gives the sign for input prefixes', () => {
    expect(currencySymbol('EUR', 'en-US')).toBe('€');
    expect(currencySymbol('USD', 'en-US')).toBe('$');
    expect(currencySymbol(null)).toBeUndefined();
    expect(currencySymbol('not a code')).toBeUndefined();
  });
});

function Currency() {
  return <p data-testid="currency">{useShopCurrency() ?? 'unknown'}</p>;
}

describe('useShopCurrency', () => {
  it('reads GET /api/shop once for every component of a session', async () => {
    const gw = fakeGateway({
      '/api/shop': {
        status: 200,
        body: {
          status: true,
          shop: { shop: 'a.myshopify.com', currency_code: 'EUR', money_format: '€{{amount}}' },
        },
      },
    });
    render(
      <ApiProvider client={gw.api}>
        <Currency />
        <Currency />
      </ApiProvider>,
    );
    await waitFor(() =>
      expect(screen.getAllByTestId('currency').map((p) => p.textContent)).toEqual(['EUR', 'EUR']),
    );
    expect(gw.calls.map((c) => c.path)).toEqual(['/api/shop']);
  });

  it('stays unknown when the shop cannot be read', async () => {
    const gw = fakeGateway({ '/api/shop': { status: 503, body: { status: false, message: 'x' } } });
    render(
      <ApiProvider client={gw.api}>
        <Currency />
      </ApiProvider>,
    );
    await waitFor(() => expect(gw.calls).toHaveLength(1));
    expect(screen.getByTestId('currency').textContent).toBe('unknown');
  });
});
