import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithPolaris } from '../editor/testing';
import type { FilterDraft } from '@ratesmith/contracts/filters';
import { cartPresetOf } from './cart-link';
import { draftCondition, draftFilter, draftGroup } from '@ratesmith/contracts/testing';
import { useState } from 'react';
import { fakeGateway, renderScreen } from '../test-utils';
import { RatePreview } from './RatePreview';
import type { PreviewAnswer, PreviewRequest } from './types';

const answer: PreviewAnswer = {
  status: true,
  rates: [
    {
      service_name: 'Standard',
      service_code: 'RATESMITH_STANDARD',
      total_price: '563',
      description: 'Tracked',
      currency: 'USD',
    },
  ],
  trace: {
    steps: [
      {
        scope: 'global',
        filterId: 'a',
        filterName: 'Outside the US',
        matched: false,
        feeBefore: 0,
        feeAfter: 0,
        stopped: false,
      },
      {
        scope: 'global',
        filterId: 'b',
        filterName: 'Per item',
        matched: true,
        actionType: 2,
        feeBefore: 0,
        feeAfter: 750,
        stopped: true,
      },
      {
        scope: 'product',
        productRuleId: 'p1',
        productId: '42',
        filterId: 'c',
        filterName: 'Hats ship free',
        matched: true,
        actionType: 0,
        feeBefore: 750,
        feeAfter: 750,
        stopped: true,
      },
    ],
    freeItems: { totalUnits: 4, freeUnits: 1, feeBefore: 750, feeAfter: 563 },
    matchedAny: true,
    blocked: false,
    fee: 563,
  },
};

const shop = (currency_code: string) => ({
  status: 200,
  body: { status: true, shop: { shop: 'a.myshopify.com', currency_code, money_format: '' } },
});

/** A one-line cart quoted once the shop's currency has loaded (the preview fills it in). */
async function quote(user: ReturnType<typeof userEvent.setup>) {
  // A busy machine can take more than waitFor's default second for the fake reply.
  await waitFor(
    () => expect((screen.getByLabelText('Currency') as HTMLInputElement).value).not.toBe(''),
    { timeout: 5_000 },
  );
  await user.type(screen.getByLabelText('Price'), '12.5');
  await user.click(screen.getByRole('button', { name: 'Preview rates' }));
}

describe('RatePreview', () => {
  it('sends an order time typed in store time, with the offset, and none when blank', async () => {
    const user = userEvent.setup();
    const sent: PreviewRequest[] = [];
    renderWithPolaris(
      <RatePreview
        draft={{ globalRuleId: 'r1', rules: [] }}
        products={[]}
        requestPreview={async (request) => {
          sent.push(request);
          return answer;
        }}
      />,
    );
    await user.type(screen.getByLabelText('Price'), '12.5');
    await user.click(screen.getByRole('button', { name: 'Preview rates' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).not.toHaveProperty('ordered_at');
    // No shop loaded here: store time is UTC.
    fireEvent.change(screen.getByLabelText('Ordered at (optional)'), {
      target: { value: '2026-12-04T15:30' },
    });
    await user.click(screen.getByRole('button', { name: 'Preview rates' }));
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]!.ordered_at).toBe('2026-12-04T15:30:00+00:00');
  });

  it("shows a rate's delivery dates when it has them, and none when it has not", async () => {
    const user = userEvent.setup();
    const dated: PreviewAnswer = {
      ...answer,
      rates: [
        {
          ...answer.rates[0]!,
          min_delivery_date: '2026-12-08 00:00:00 -0500',
          max_delivery_date: '2026-12-10 00:00:00 -0500',
        },
        {
          service_name: 'Gift wrapped',
          service_code: 'RATESMITH_UPGRADE_1',
          total_price: '900',
          description: '',
          currency: 'USD',
        },
      ],
    };
    renderWithPolaris(
      <RatePreview
        draft={{ globalRuleId: 'r1', rules: [] }}
        products={[]}
        requestPreview={async () => dated}
      />,
    );
    await user.type(screen.getByLabelText('Price'), '12.5');
    await user.click(screen.getByRole('button', { name: 'Preview rates' }));
    const result = await screen.findByRole('region', { name: 'Preview result' });
    expect(
      within(result).getByText('RATESMITH_STANDARD · Tracked · arrives Tue 8 – Thu 10 Dec'),
    ).toBeTruthy();
    expect(within(result).getByText('RATESMITH_UPGRADE_1')).toBeTruthy();
  });

  it('quotes the cart against the draft and shows the rates and each step', async () => {
    const user = userEvent.setup();
    const requests: PreviewRequest[] = [];
    const draft = { globalRuleId: 'r1', rules: [] as FilterDraft[] };
    renderWithPolaris(
      <RatePreview
        draft={draft}
        products={[{ productId: '42', name: 'Blue hat' }]}
        requestPreview={async (request) => {
          requests.push(request);
          return answer;
        }}
      />,
    );

    await user.type(screen.getByLabelText('Price'), '12.5');
    await user.clear(screen.getByLabelText('Quantity'));
    await user.type(screen.getByLabelText('Quantity'), '3');
    await user.click(screen.getByRole('button', { name: 'Add cart line' }));
    const second = screen.getByRole('group', { name: 'Cart line 2' });
    await user.type(within(second).getByLabelText('Price'), '0');
    await user.selectOptions(within(second).getByLabelText('Product (optional)'), '42');
    await user.click(screen.getByRole('button', { name: 'Preview rates' }));

    expect(requests).toEqual([
      {
        rate: {
          destination: { country: 'US', province: '', postal_code: '' },
          currency: 'USD',
          items: [
            { price: 1250, quantity: 3, grams: 0, requires_shipping: true },
            { price: 0, quantity: 1, grams: 0, requires_shipping: true, product_id: 42 },
          ],
        },
        draft,
      },
    ]);
    const result = await screen.findByRole('region', { name: 'Preview result' });
    expect(within(result).getByText('Standard: $5.63')).toBeTruthy();
    const rows = within(result)
      .getAllByRole('row')
      .map((row) => row.textContent);
    expect(rows[1]).toBe('1Global: Outside the USNo—$0.00$0.00Skipped');
    expect(rows[2]).toBe(
      '2Global: Per itemYesAdd Shipping Fee For Each Retail Product$0.00$7.50Stopped',
    );
    expect(rows[3]).toBe(
      '3Product rule (Blue hat): Hats ship freeYesMake Shipping Free For This Item$7.50$7.50Stopped',
    );
    expect(within(result).queryByText(/compared:/)).toBeNull();
    expect(
      within(result).getByText(
        'Free-shipping items: 1 of 4 units, so the fee went from $7.50 to $5.63.',
      ),
    ).toBeTruthy();
    expect(within(result).getByText('Regular fee: $5.63')).toBeTruthy();
  });

  it("shows each step's rule as a sentence, from the draft as it was when quoted", async () => {
    const user = userEvent.setup();
    const filter = (id: string, overrides: Partial<FilterDraft>) =>
      draftFilter({ id, name: id, ...overrides });
    const rules = [
      filter('a', {
        raw_query: draftGroup([draftCondition('shipping_country', 'not_equal', 'US')]),
        action_type: 5,
        action_data: 20,
      }),
      filter('b', { action_type: 2, action_data: 2.5 }),
      // The same id as the product rule's step: a ruleset's filter must not lend it its sentence.
      filter('c', { action_type: 1 }),
    ];
    /** The page around the preview: its draft changes after quoting. */
    function Page() {
      const [draft, setDraft] = useState({ globalRuleId: 'r1', rules });
      return (
        <>
          <button
            onClick={() =>
              setDraft({ globalRuleId: 'r1', rules: [{ ...rules[0]!, action_data: 99 }] })
            }
          >
            Edit the draft
          </button>
          <RatePreview
            draft={draft}
            products={[{ productId: '42', name: 'Blue hat' }]}
            requestPreview={async () => answer}
          />
        </>
      );
    }
    renderScreen(<Page />, '/', fakeGateway({ '/api/shop': shop('USD') }).api);
    await quote(user);
    const result = await screen.findByRole('region', { name: 'Preview result' });
    const ruleCells = () =>
      within(result)
        .getAllByRole('row')
        .slice(1)
        .map((row) => within(row).getAllByRole('cell')[0]!.textContent);
    expect(ruleCells()).toEqual([
      "Global: Outside the USIf not shipping to United States → set the cart's shipping to $20.00, replacing what the rules before it made, then stop.",
      'Global: Per itemIf the cart is less than $50.00 → add $2.50 per retail item, then stop.',
      'Product rule (Blue hat): Hats ship free',
    ]);

    // Edited after quoting: the table keeps describing what was quoted.
    await user.click(screen.getByRole('button', { name: 'Edit the draft' }));
    expect(ruleCells()[0]).toContain("set the cart's shipping to $20.00");
  });

  it("shows a product rule's steps as sentences in that rule's own preview, in the shop's currency", async () => {
    const user = userEvent.setup();
    renderScreen(
      <RatePreview
        draft={{
          productRuleId: 'p1',
          rules: [draftFilter({ id: 'c', action_type: 0, post_processing_action_type: 1 })],
        }}
        products={[{ productId: '42', name: 'Blue hat' }]}
        requestPreview={async () => answer}
      />,
      '/',
      fakeGateway({ '/api/shop': shop('EUR') }).api,
    );
    await quote(user);
    const result = await screen.findByRole('region', { name: 'Preview result' });
    expect(
      within(result).getByText(
        "If the cart is less than €50.00 → this product ships free: the cart's shipping is cut by its share of the items.",
      ),
    ).toBeTruthy();
  });

  it('sends the weight, state and postal code, and shows what each step compared', async () => {
    const user = userEvent.setup();
    const requests: PreviewRequest[] = [];
    const weighed: PreviewAnswer = {
      status: true,
      rates: [answer.rates[0]!],
      trace: {
        steps: [
          {
            scope: 'global',
            filterId: 'w',
            filterName: 'Heavy to California',
            matched: true,
            actionType: 6,
            feeBefore: 0,
            feeAfter: 600,
            stopped: false,
            cartWeight: 2500,
            region: 'US-CA',
            postalCode: '902101234',
            scopeWeight: 2500,
            weightSteps: 3,
          },
          {
            scope: 'global',
            filterId: 'n',
            filterName: 'No province',
            matched: false,
            feeBefore: 600,
            feeAfter: 600,
            stopped: false,
            region: '',
          },
        ],
        freeItems: null,
        matchedAny: true,
        blocked: false,
        fee: 600,
      },
    };
    renderWithPolaris(
      <RatePreview
        draft={{ rules: [] }}
        products={[]}
        requestPreview={async (request) => {
          requests.push(request);
          return weighed;
        }}
      />,
    );
    await user.selectOptions(screen.getByLabelText('State or province'), 'CA');
    await user.type(screen.getByLabelText('Postal code'), '90210-1234');
    await user.type(screen.getByLabelText('Price'), '10');
    await user.type(screen.getByLabelText('Weight (g each)'), '2500');
    await user.click(screen.getByRole('button', { name: 'Preview rates' }));
    expect(requests[0]!.rate.destination).toEqual({
      country: 'US',
      province: 'CA',
      postal_code: '90210-1234',
    });
    expect(requests[0]!.rate.items).toEqual([
      { price: 1000, quantity: 1, grams: 2500, requires_shipping: true },
    ]);
    const result = await screen.findByRole('region', { name: 'Preview result' });
    expect(
      within(result).getByText(
        'Step 1 compared: cart weight 2.5 kg, region US-CA, postal code 902101234, 2.5 kg in 3 weight step(s).',
      ),
    ).toBeTruthy();
    expect(within(result).getByText('Step 2 compared: region none.')).toBeTruthy();

    await user.clear(screen.getByLabelText('Weight (g each)'));
    await user.type(screen.getByLabelText('Weight (g each)'), '1.5');
    await user.click(screen.getByRole('button', { name: 'Preview rates' }));
    expect(screen.getByText('Line 1: enter a weight in whole grams, such as 250.')).toBeTruthy();
  });

  it('says when nothing matched, and checks the cart before asking', async () => {
    const user = userEvent.setup();
    let calls = 0;
    renderWithPolaris(
      <RatePreview
        draft={{ rules: [] }}
        products={[]}
        requestPreview={async () => {
          calls++;
          return {
            status: true,
            rates: [],
            trace: { steps: [], freeItems: null, matchedAny: false, blocked: false, fee: 0 },
          };
        }}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Preview rates' }));
    expect(screen.getByText('Line 1: enter a price such as 12.50.')).toBeTruthy();
    expect(calls).toBe(0);

    await user.type(screen.getByLabelText('Price'), '5');
    await user.click(screen.getByRole('button', { name: 'Preview rates' }));
    expect(await screen.findByText('No rates')).toBeTruthy();
    expect(screen.getByText('Nothing matched.')).toBeTruthy();
    // An empty answer suppresses Shopify's backup rates and is cached: the merchant is told.
    expect(screen.getByText(/keeps this answer for about 15 minutes/)).toBeTruthy();
  });

  it('waits while the draft has errors', () => {
    renderWithPolaris(
      <RatePreview
        draft={{ rules: [] }}
        products={[]}
        blockedReason="Fix the errors listed above to preview these rules."
        requestPreview={async () => answer}
      />,
    );
    expect(
      screen.getByRole('button', { name: 'Preview rates' }).getAttribute('aria-disabled'),
    ).toBe('true');
  });

  it('opens with a checkout’s cart, previews it at once, and says when the fallback rate answered', async () => {
    const requests: PreviewRequest[] = [];
    renderWithPolaris(
      <RatePreview
        draft={{ globalRuleId: 'r1', rules: [] }}
        products={[{ productId: '42', name: 'Blue hat' }]}
        initialCart={cartPresetOf(
          new URLSearchParams('country=CA&currency=EUR&line=2500_2_1000_42&line=999_1_0_7'),
        )}
        requestPreview={async (request) => {
          requests.push(request);
          return {
            status: true,
            rates: [
              {
                service_name: 'Standard',
                service_code: 'RATESMITH_FALLBACK',
                total_price: '750',
                description: '',
                currency: 'EUR',
              },
            ],
            trace: { steps: [], freeItems: null, matchedAny: false, blocked: false, fee: 0 },
          };
        }}
      />,
    );
    expect(
      await screen.findByText('Nothing matched, so checkout gets your fallback rate.'),
    ).toBeTruthy();
    expect(requests).toEqual([
      {
        rate: {
          destination: { country: 'CA', province: '', postal_code: '' },
          currency: 'EUR',
          items: [
            { price: 2500, quantity: 2, grams: 1000, requires_shipping: true, product_id: 42 },
            { price: 999, quantity: 1, grams: 0, requires_shipping: true, product_id: 7 },
          ],
        },
        draft: { globalRuleId: 'r1', rules: [] },
      },
    ]);
    const second = screen.getByRole('group', { name: 'Cart line 2' });
    expect((within(second).getByLabelText('Price') as HTMLInputElement).value).toBe('9.99');
    // A product without a product rule keeps its id in the cart.
    expect(
      (within(second).getByLabelText('Product (optional)') as HTMLSelectElement).selectedOptions[0]!
        .textContent,
    ).toBe('Product 7');
  });
});
