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
import type { TestCheckoutReply } from '../api';

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

describe("RatePreview: a merchant's first hour", () => {
  const shopIn = (weight_unit: string) => ({
    status: 200,
    body: {
      status: true,
      shop: { shop: 'a.myshopify.com', currency_code: 'USD', money_format: '', weight_unit },
    },
  });
  const weightField = (unit: string, line = 1) =>
    within(screen.getByRole('group', { name: `Cart line ${line}` })).getByLabelText(
      `Weight (${unit} each)`,
    ) as HTMLInputElement;

  it("shows and takes weights in the shop's unit, a link's grams included", async () => {
    const user = userEvent.setup();
    const sent: PreviewRequest[] = [];
    renderScreen(
      <RatePreview
        draft={{ rules: [] }}
        products={[]}
        initialCart={cartPresetOf(new URLSearchParams('country=US&currency=USD&line=2500_1_1000_'))}
        requestPreview={async (request) => {
          sent.push(request);
          return answer;
        }}
      />,
      '/',
      fakeGateway({ '/api/shop': shopIn('lb') }).api,
    );
    // 1,000 g is 2.205 lb (1 lb = 453.59237 g).
    await waitFor(() => expect(weightField('lb').value).toBe('2.205'), { timeout: 5_000 });
    await user.click(screen.getByRole('button', { name: 'Add cart line' }));
    await user.type(
      screen.getByRole('group', { name: 'Cart line 2' }).querySelector('input')!,
      '4',
    );
    await user.type(weightField('lb', 2), '1.5');
    await user.click(screen.getByRole('button', { name: 'Preview rates' }));
    await waitFor(() => expect(sent.length).toBeGreaterThan(1));
    expect(sent.at(-1)!.rate.items.map((i) => i.grams)).toEqual([1000, 680]);

    await user.clear(weightField('lb', 2));
    await user.type(weightField('lb', 2), '1.2345');
    await user.click(screen.getByRole('button', { name: 'Preview rates' }));
    expect(
      screen.getByText('Line 2: enter a weight in lb (up to 3 decimals), such as 0.5.'),
    ).toBeTruthy();
  });

  it("fills in a picked product's price and weight, the weight in the shop's unit", async () => {
    const user = userEvent.setup();
    const sent: PreviewRequest[] = [];
    const asked: string[] = [];
    renderScreen(
      <RatePreview
        draft={{ rules: [] }}
        products={[{ productId: '42', name: 'Blue hat' }]}
        readProduct={async (productId) => {
          asked.push(productId);
          return { price: '19.99', weight: { amount: 500, unit: 'g' } };
        }}
        requestPreview={async (request) => {
          sent.push(request);
          return answer;
        }}
      />,
      '/',
      fakeGateway({ '/api/shop': shopIn('kg') }).api,
    );
    await waitFor(() => expect(weightField('kg').value).toBe(''), { timeout: 5_000 });
    await user.selectOptions(screen.getByLabelText('Product (optional)'), '42');
    await waitFor(() => expect(weightField('kg').value).toBe('0.5'));
    expect(asked).toEqual(['42']);
    expect((screen.getByLabelText('Price') as HTMLInputElement).value).toBe('19.99');
    await user.click(screen.getByRole('button', { name: 'Preview rates' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.rate.items).toEqual([
      { price: 1999, quantity: 1, grams: 500, requires_shipping: true, product_id: 42 },
    ]);
  });

  it('says in words when a picked product cannot be read', async () => {
    const user = userEvent.setup();
    renderWithPolaris(
      <RatePreview
        draft={{ rules: [] }}
        products={[{ productId: '42', name: 'Blue hat' }]}
        readProduct={async () => {
          throw new Error('Shopify is not answering.');
        }}
        requestPreview={async () => answer}
      />,
    );
    await user.selectOptions(screen.getByLabelText('Product (optional)'), '42');
    expect(
      await screen.findByText('Price and weight not filled in: Shopify is not answering.'),
    ).toBeTruthy();
  });

  it('hides a result once the cart is invalid, and marks a changed cart’s result out of date', async () => {
    const user = userEvent.setup();
    renderWithPolaris(
      <RatePreview draft={{ rules: [] }} products={[]} requestPreview={async () => answer} />,
    );
    await user.type(screen.getByLabelText('Price'), '12.5');
    await user.click(screen.getByRole('button', { name: 'Preview rates' }));
    await screen.findByRole('region', { name: 'Preview result' });

    await user.clear(screen.getByLabelText('Price'));
    expect(screen.queryByRole('region', { name: 'Preview result' })).toBeNull();
    expect(
      screen.getByText(
        'The last result is hidden until the cart is valid again: Line 1: enter a price such as 12.50.',
      ),
    ).toBeTruthy();

    await user.type(screen.getByLabelText('Price'), '13');
    expect(screen.getByRole('region', { name: 'Preview result' })).toBeTruthy();
    expect(screen.getByText('Out of date')).toBeTruthy();

    await user.clear(screen.getByLabelText('Price'));
    await user.type(screen.getByLabelText('Price'), '12.5');
    expect(screen.queryByText('Out of date')).toBeNull();
  });

  it('sends the previewed cart as a test checkout and shows what checkout got', async () => {
    const user = userEvent.setup();
    const sent: unknown[] = [];
    let reply: TestCheckoutReply | Error = {
      status: true,
      zone: 'Domestic',
      asked: true,
      rates: [answer.rates[0]!],
      message: 'Checkout asked Ratesmith (zone Domestic) and got 1 rate.',
    };
    renderScreen(
      <RatePreview
        draft={{ rules: [] }}
        products={[]}
        requestPreview={async () => answer}
        sendTestCheckout={async (request) => {
          sent.push(request);
          if (reply instanceof Error) throw reply;
          return reply;
        }}
      />,
    );
    expect(screen.queryByRole('button', { name: 'Send this cart as a test checkout' })).toBeNull();
    await user.type(screen.getByLabelText('Price'), '12.5');
    await user.click(screen.getByRole('button', { name: 'Preview rates' }));
    await user.click(
      await screen.findByRole('button', { name: 'Send this cart as a test checkout' }),
    );
    const result = await screen.findByRole('region', { name: 'Test checkout' });
    await within(result).findByText('Checkout asked Ratesmith (zone Domestic) and got 1 rate.');
    expect(sent).toEqual([
      {
        rate: {
          destination: { country: 'US', province: '', postal_code: '' },
          currency: 'USD',
          items: [{ price: 1250, quantity: 1, grams: 0, requires_shipping: true }],
        },
      },
    ]);
    expect(within(result).getByText('Standard: $5.63')).toBeTruthy();
    expect(within(result).getByText('Checkout got the same rates as this preview.')).toBeTruthy();
    expect(
      within(result).getByRole('link', { name: 'Open Recent checkouts' }).getAttribute('href'),
    ).toBe('/recent-checkouts');

    reply = new Error('The test checkout got no answer within 12 seconds.');
    await user.click(
      within(result).getByRole('button', { name: 'Send this cart as a test checkout' }),
    );
    expect(
      await within(result).findByText('The test checkout got no answer within 12 seconds.'),
    ).toBeTruthy();

    // A changed cart is not the one checked: the button goes until it is previewed again.
    await user.type(screen.getByLabelText('Price'), '1');
    expect(screen.queryByRole('button', { name: 'Send this cart as a test checkout' })).toBeNull();
  });
});
