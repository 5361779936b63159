import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { fakeGateway, renderScreen } from '../test-utils';
import { ItemTextInput } from './ItemTextInput';

function Field({ figure }: { figure: 'item_product_tag' | 'item_sku' }) {
  const [value, setValue] = useState('');
  return (
    <>
      <ItemTextInput figure={figure} label="Product Tag" value={value} onChange={setValue} />
      <output>{value}</output>
    </>
  );
}

describe('ItemTextInput', () => {
  it("asks for the shop's own tags at once, then for what the merchant typed", async () => {
    const gateway = fakeGateway({
      '/api/product-texts': {
        status: 200,
        body: { status: true, values: ['Oversize', 'oversize-xl'], complete: true },
      },
    });
    renderScreen(<Field figure="item_product_tag" />, '/', gateway.api);
    await waitFor(() => expect(gateway.calls).toHaveLength(1));
    await userEvent.setup().type(screen.getByLabelText('Product Tag'), 'over');
    // Keystrokes within the delay ask once, for what was typed last (the pick itself is
    // tried in Chromium: frontend/test/item-conditions.int.spec.ts).
    await waitFor(() =>
      expect(gateway.calls.map((c) => c.path)).toEqual([
        '/api/product-texts?kind=tag&search=',
        '/api/product-texts?kind=tag&search=over',
      ]),
    );
    expect(document.querySelector('output')!.textContent).toBe('over');
  });

  it('keeps a value no product has yet, and says so', async () => {
    const gateway = fakeGateway({
      '/api/product-texts': { status: 200, body: { status: true, values: [], complete: true } },
    });
    renderScreen(<Field figure="item_product_tag" />, '/', gateway.api);
    await userEvent.setup().type(screen.getByLabelText('Product Tag'), 'hazmat');
    expect(
      await screen.findByText(
        'No product has this tag yet: the rule keeps it and matches once one does.',
      ),
    ).toBeTruthy();
    expect(document.querySelector('output')!.textContent).toBe('hazmat');
  });

  it.each([
    ['values contain the text (case-blind)', ['Oversize'], true],
    ['the shop has more values than were read', [], false],
  ])('says nothing when %s', async (_, values, complete) => {
    const gateway = fakeGateway({
      '/api/product-texts': { status: 200, body: { status: true, values, complete } },
    });
    renderScreen(<Field figure="item_product_tag" />, '/', gateway.api);
    await userEvent.setup().type(screen.getByLabelText('Product Tag'), 'OVERSIZE');
    await waitFor(() => expect(gateway.calls.length).toBeGreaterThan(0));
    await new Promise((r) => setTimeout(r, 300));
    expect(screen.queryByText(/No product has this tag yet/)).toBeNull();
  });

  it('asks nothing for a SKU: it is typed', async () => {
    const gateway = fakeGateway({});
    renderScreen(<Field figure="item_sku" />, '/', gateway.api);
    await userEvent.setup().type(screen.getByLabelText('Product Tag'), 'BOOT-');
    await new Promise((r) => setTimeout(r, 300));
    expect(gateway.calls).toEqual([]);
    expect(document.querySelector('output')!.textContent).toBe('BOOT-');
  });
});
