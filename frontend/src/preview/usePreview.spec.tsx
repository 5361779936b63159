import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { ApiProvider } from '../api';
import { fakeGateway } from '../test-utils';
import { usePreview } from './usePreview';

/** What the editors give the preview: a product's figures, and the test checkout in demo mode only. */
describe('usePreview', () => {
  const gateway = () =>
    fakeGateway({
      '/api/product-rules': { status: 200, body: { status: true, products: { data: [] } } },
      '/api/product-rules/shopify-products/42/variants': {
        status: 200,
        body: {
          status: true,
          variants: [
            { id: 'gid://shopify/ProductVariant/1', title: 'S', price: '19.99', weight: null },
            {
              id: 'gid://shopify/ProductVariant/2',
              title: 'M',
              price: '21.00',
              weight: { amount: 1, unit: 'lb' },
            },
          ],
        },
      },
      'POST /api/test-checkout': {
        status: 200,
        body: { status: true, zone: 'Canada', asked: true, rates: [], message: 'Asked.' },
      },
    });
  const hookWith = (gw: ReturnType<typeof gateway>) =>
    renderHook(() => usePreview(), {
      wrapper: ({ children }: { children: ReactNode }) => (
        <ApiProvider client={gw.api}>{children}</ApiProvider>
      ),
    });

  it("reads a product's first variant, and sends a test checkout outside the Shopify admin", async () => {
    const gw = gateway();
    const { result } = hookWith(gw);
    await waitFor(() => expect(gw.calls.length).toBeGreaterThan(0));
    expect(await result.current.readProduct('42')).toEqual({ price: '19.99', weight: null });
    const rate = { destination: { country: 'CA' }, currency: 'USD', items: [] };
    expect(await result.current.sendTestCheckout!({ rate })).toMatchObject({ zone: 'Canada' });
    expect(gw.calls.at(-1)).toMatchObject({
      method: 'POST',
      path: '/api/test-checkout',
      body: { rate },
    });
  });

  it('offers no test checkout inside the Shopify admin (App Bridge on)', async () => {
    const meta = document.createElement('meta');
    meta.name = 'shopify-api-key';
    document.head.append(meta);
    try {
      const gw = gateway();
      const { result } = hookWith(gw);
      await waitFor(() => expect(gw.calls.length).toBeGreaterThan(0));
      expect(result.current.sendTestCheckout).toBeUndefined();
      expect(typeof result.current.readProduct).toBe('function');
    } finally {
      meta.remove();
    }
  });
});
