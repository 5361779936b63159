import {
  Banner,
  BlockStack,
  Button,
  Card,
  DataTable,
  InlineStack,
  Link,
  Select,
  Text,
  TextField,
} from '@shopify/polaris';
import { DeleteIcon, PlusIcon } from '@shopify/polaris-icons';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { CountrySelect } from '../editor/CountrySelect';
import { useRegions } from '../data/regions';
import { actionLabel, describeFilter } from '@ratesmith/contracts/filters';
import type { FilterDraft, SentenceFormat, WeightUnit } from '@ratesmith/contracts/filters';
import { sentenceFormat } from '../editor/sentenceFormat';
import { arrivalText } from '../delivery-dates';
import { formatCents } from '../money/money';
import { useShopCurrency, useShopTimezone, useShopWeightUnit } from '../money/useShopCurrency';
import { storeTimeInstant } from '../delivery-dates';
import { cartItems, convertTypedWeight, formatGrams, typedWeight, type CartRow } from './cart';
import type { CartPreset } from './cart-link';
import type {
  PreviewAnswer,
  PreviewProduct,
  PreviewRate,
  PreviewRequest,
  ReadProduct,
  RequestPreview,
  SendTestCheckout,
  TraceStep,
} from './types';
import type { TestCheckoutReply } from '../api';

export interface RatePreviewProps {
  requestPreview: RequestPreview;
  /** The editor's current (unsaved) filters, quoted instead of the saved ones (a ruleset's, or with productRuleId that product rule's). */
  draft: { globalRuleId?: string; productRuleId?: string; rules: FilterDraft[] };
  /** Set while the draft has errors: the preview waits until they are fixed. */
  blockedReason?: string;
  products: readonly PreviewProduct[];
  /** A checkout's cart to start with (the Dashboard's link); it is previewed at once. */
  initialCart?: CartPreset | null;
  /** Reads a picked product's price and weight into its cart line. */
  readProduct?: ReadProduct;
  /** Demo mode only: sends the previewed cart through the Shopify double's checkout. */
  sendTestCheckout?: SendTestCheckout;
}

/** Weights are typed in grams until the shop's unit is known (GET /api/shop). */
const UNTIL_SHOP_UNIT: WeightUnit = 'g';

/** What a quote was asked for: the same key is the same cart, address and time. */
const requestKey = (request: PreviewRequest) =>
  JSON.stringify([request.rate, request.ordered_at ?? '']);

/** "Why is shipping $X?": quote a test cart against the rules being edited, step by step. */
export function RatePreview({
  requestPreview,
  draft,
  blockedReason,
  products,
  initialCart,
  readProduct,
  sendTestCheckout,
}: RatePreviewProps) {
  const nextKey = useRef((initialCart?.lines.length ?? 1) + 1);
  const [country, setCountry] = useState(initialCart?.country ?? 'US');
  const shopCurrency = useShopCurrency();
  const regions = useRegions().table;
  const [currency, setCurrency] = useState(initialCart?.currency ?? '');
  // The cart is quoted in the shop's currency unless the merchant types another.
  useEffect(() => {
    if (shopCurrency) setCurrency((typed) => typed || shopCurrency);
  }, [shopCurrency]);
  // Shopify's province code ("CA" of US-CA) and the postal code as a buyer types it.
  const [province, setProvince] = useState('');
  const [postalCode, setPostalCode] = useState('');
  /** The order's store time (`YYYY-MM-DDTHH:MM`), for delivery dates; blank: now. */
  const [orderedAt, setOrderedAt] = useState('');
  const shopTimezone = useShopTimezone();
  // Weights are shown and typed in the shop's unit; what was typed before it was known moves to it.
  const shopUnit = useShopWeightUnit();
  const [weightUnit, setWeightUnit] = useState<WeightUnit>(shopUnit ?? UNTIL_SHOP_UNIT);
  const unitNow = useRef(weightUnit);
  unitNow.current = weightUnit;
  const [lines, setLines] = useState<CartRow[]>(() =>
    initialCart
      ? initialCart.lines.map(({ grams, ...line }, i) => ({
          ...line,
          key: i + 1,
          weight: convertTypedWeight(grams, 'g', weightUnit),
        }))
      : [{ key: 1, price: '', quantity: '1', productId: '', weight: '' }],
  );
  useEffect(() => {
    if (!shopUnit || shopUnit === unitNow.current) return;
    const from = unitNow.current;
    setLines((all) =>
      all.map((line) => ({ ...line, weight: convertTypedWeight(line.weight, from, shopUnit) })),
    );
    setWeightUnit(shopUnit);
  }, [shopUnit]);
  const [loading, setLoading] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [answer, setAnswer] = useState<Quoted | null>(null);
  /** Per cart line: its product's figures being read, or why they could not be. */
  const [productNotes, setProductNotes] = useState<Record<number, ProductNote>>({});
  /** The product each line asked for last: an older read that lands later is dropped. */
  const productAsked = useRef(new Map<number, string>());

  const setLine = (key: number, patch: Partial<CartRow>) =>
    setLines((all) => all.map((line) => (line.key === key ? { ...line, ...patch } : line)));

  const pickProduct = async (key: number, productId: string) => {
    setLine(key, { productId });
    productAsked.current.set(key, productId);
    const note = (next: ProductNote | null) =>
      setProductNotes(({ [key]: _old, ...rest }) => (next ? { ...rest, [key]: next } : rest));
    if (!productId || !readProduct) return note(null);
    note({ reading: true });
    try {
      const facts = await readProduct(productId);
      if (productAsked.current.get(key) !== productId) return;
      note(facts ? null : { error: 'This product has no variant to take a price from.' });
      if (facts) {
        setLine(key, {
          price: facts.price,
          ...(facts.weight ? { weight: typedWeight(facts.weight, unitNow.current) } : {}),
        });
      }
    } catch (error) {
      if (productAsked.current.get(key) !== productId) return;
      const why = error instanceof Error ? error.message : 'it could not be read.';
      note({ error: `Price and weight not filled in: ${why}` });
    }
  };

  /** The quote the form asks for now, or what is wrong with the form. */
  const current = ((): { request: PreviewRequest } | { error: string } => {
    const cart = cartItems(lines, weightUnit);
    const code = (currency.trim() || shopCurrency || 'USD').toUpperCase();
    if ('error' in cart) return cart;
    if (!country) return { error: 'Choose a destination country.' };
    if (!/^[A-Z]{3}$/.test(code)) return { error: 'Enter a three-letter currency code.' };
    const ordered = orderedAt ? storeTimeInstant(orderedAt, shopTimezone ?? 'UTC') : undefined;
    if (orderedAt && !ordered) return { error: 'Enter the order time as a date and a time.' };
    return {
      request: {
        rate: {
          destination: { country, province, postal_code: postalCode },
          currency: code,
          items: cart.items,
        },
        draft,
        ...(ordered ? { ordered_at: ordered } : {}),
      },
    };
  })();
  const currentKey = 'request' in current ? requestKey(current.request) : null;

  const preview = async () => {
    if ('error' in current) return setProblem(current.error);
    const { request } = current;
    setProblem(null);
    setLoading(true);
    try {
      const result = await requestPreview(request);
      setAnswer({
        result,
        request,
        key: requestKey(request),
        currency: request.rate.currency,
        sentences: sentencesOf(draft, sentenceFormat(shopCurrency, regions)),
      });
    } catch (error) {
      setAnswer(null);
      setProblem(error instanceof Error ? error.message : 'The preview failed.');
    } finally {
      setLoading(false);
    }
  };

  // A checkout's cart may name products without a product rule: they keep their id.
  const named = new Set(products.map((p) => p.productId));
  const productOptions = [
    { label: 'No product', value: '' },
    ...products.map((p) => ({ label: p.name, value: p.productId })),
    ...[...new Set(lines.map((l) => l.productId))]
      .filter((id) => id && !named.has(id))
      .map((id) => ({ label: `Product ${id}`, value: id })),
  ];

  // A checkout's cart is previewed as soon as the page opens with it.
  const previewedInitial = useRef(false);
  useEffect(() => {
    if (!initialCart || blockedReason || previewedInitial.current) return;
    previewedInitial.current = true;
    void preview();
    // Once, with the cart the page opened with (preview reads the state it started from).
  }, [initialCart, blockedReason]);

  return (
    <Card>
      <section aria-label="Rate preview">
        <BlockStack gap="400">
          <BlockStack gap="100">
            <Text as="h2" variant="headingMd">
              Rate preview
            </Text>
            <Text as="p" tone="subdued">
              Try a cart against the rules on this page, saved or not, and see which rules matched
              and how the fee was reached.
            </Text>
          </BlockStack>
          <InlineStack gap="300" blockAlign="end">
            <div style={{ minWidth: 280 }}>
              <CountrySelect
                label="Destination country"
                value={country}
                onChange={(next) => {
                  setCountry(next);
                  if (next !== country) setProvince('');
                }}
              />
            </div>
            <div style={{ minWidth: 200 }}>
              <Select
                label="State or province"
                options={[
                  { label: 'None', value: '' },
                  ...(regions?.regionsOf(country) ?? []).map((r) => ({
                    label: r.name,
                    value: r.code.slice(3),
                  })),
                ]}
                value={province}
                onChange={setProvince}
              />
            </div>
            <div style={{ width: 140 }}>
              <TextField
                label="Postal code"
                autoComplete="off"
                value={postalCode}
                onChange={setPostalCode}
              />
            </div>
            <div style={{ width: 110 }}>
              <TextField
                label="Currency"
                autoComplete="off"
                maxLength={3}
                placeholder={shopCurrency ?? 'USD'}
                value={currency}
                onChange={setCurrency}
              />
            </div>
            <div style={{ width: 220 }}>
              <TextField
                label="Ordered at (optional)"
                type="datetime-local"
                autoComplete="off"
                helpText={`Store time${shopTimezone ? `, ${shopTimezone}` : ''}; blank is now.`}
                value={orderedAt}
                onChange={setOrderedAt}
              />
            </div>
          </InlineStack>
          <BlockStack gap="200">
            <Text as="h3" variant="headingSm">
              Cart lines
            </Text>
            {lines.map((line, index) => (
              <div key={line.key} role="group" aria-label={`Cart line ${index + 1}`}>
                <InlineStack gap="200" blockAlign="end">
                  <div style={{ width: 140 }}>
                    <TextField
                      label="Price"
                      inputMode="decimal"
                      autoComplete="off"
                      placeholder="12.50"
                      value={line.price}
                      onChange={(price) => setLine(line.key, { price })}
                    />
                  </div>
                  <div style={{ width: 100 }}>
                    <TextField
                      label="Quantity"
                      inputMode="numeric"
                      autoComplete="off"
                      value={line.quantity}
                      onChange={(quantity) => setLine(line.key, { quantity })}
                    />
                  </div>
                  <div style={{ width: 120 }}>
                    <TextField
                      label={`Weight (${weightUnit} each)`}
                      inputMode={weightUnit === 'g' ? 'numeric' : 'decimal'}
                      autoComplete="off"
                      placeholder="0"
                      value={line.weight}
                      onChange={(weight) => setLine(line.key, { weight })}
                    />
                  </div>
                  <div style={{ flex: 1, minWidth: 200 }}>
                    <Select
                      label="Product (optional)"
                      options={productOptions}
                      value={line.productId}
                      onChange={(productId) => void pickProduct(line.key, productId)}
                      helpText={
                        productNotes[line.key] && 'reading' in productNotes[line.key]!
                          ? 'Filling in its price and weight…'
                          : undefined
                      }
                      error={
                        productNotes[line.key] && 'error' in productNotes[line.key]!
                          ? (productNotes[line.key] as { error: string }).error
                          : undefined
                      }
                    />
                  </div>
                  <Button
                    icon={DeleteIcon}
                    variant="tertiary"
                    tone="critical"
                    disabled={lines.length === 1}
                    accessibilityLabel={`Remove cart line ${index + 1}`}
                    onClick={() => {
                      productAsked.current.delete(line.key);
                      setLines((all) => all.filter((l) => l.key !== line.key));
                    }}
                  />
                </InlineStack>
              </div>
            ))}
            <div>
              <Button
                icon={PlusIcon}
                onClick={() =>
                  setLines((all) => [
                    ...all,
                    { key: nextKey.current++, price: '', quantity: '1', productId: '', weight: '' },
                  ])
                }
              >
                Add cart line
              </Button>
            </div>
          </BlockStack>
          {blockedReason && (
            <Banner tone="warning">
              <p>{blockedReason}</p>
            </Banner>
          )}
          {problem && (
            <Banner tone="critical">
              <p>{problem}</p>
            </Banner>
          )}
          <div>
            <Button
              variant="primary"
              loading={loading}
              disabled={Boolean(blockedReason)}
              onClick={preview}
            >
              Preview rates
            </Button>
          </div>
          {answer && !currentKey && (
            // The answer was for a cart no longer on screen: it is not shown next to this one.
            <Text as="p" tone="subdued">
              The last result is hidden until the cart is valid again:{' '}
              {(current as { error: string }).error}
            </Text>
          )}
          {answer && currentKey && (
            <BlockStack gap="300">
              {answer.key !== currentKey && (
                <Banner tone="warning" title="Out of date">
                  <p>
                    This result is for the cart as it was when you previewed it. Preview rates again
                    for the cart above.
                  </p>
                </Banner>
              )}
              <PreviewResult
                answer={answer.result}
                currency={answer.currency}
                sentences={answer.sentences}
                products={products}
              />
              {sendTestCheckout && answer.key === currentKey && (
                <TestCheckout
                  key={answer.key}
                  send={sendTestCheckout}
                  request={answer.request}
                  previewRates={answer.result.rates}
                  currency={answer.currency}
                />
              )}
            </BlockStack>
          )}
        </BlockStack>
      </section>
    </Card>
  );
}

/** A quoted answer, what was asked, and the sentences of the draft's filters as they were when quoted. */
interface Quoted {
  result: PreviewAnswer;
  request: PreviewRequest;
  /** requestKey of `request`: the result is fresh while the form asks the same. */
  key: string;
  currency: string;
  sentences: ReadonlyMap<string, string>;
}

/** A cart line's product read: under way, or failed in words. */
type ProductNote = { reading: true } | { error: string };

/** The rates as checkout compares them: service and price. */
const sameRates = (a: readonly PreviewRate[], b: readonly PreviewRate[]) =>
  JSON.stringify(a.map((r) => [r.service_code, r.total_price])) ===
  JSON.stringify(b.map((r) => [r.service_code, r.total_price]));

/**
 * Demo mode's test checkout of the previewed cart: through the Shopify
 * double's checkout and the app's signed carrier callback (POST
 * /api/test-checkout), so Recent checkouts and analytics fill as a real
 * checkout fills them.
 */
function TestCheckout({
  send,
  request,
  previewRates,
  currency,
}: {
  send: SendTestCheckout;
  request: PreviewRequest;
  previewRates: readonly PreviewRate[];
  currency: string;
}) {
  const [sending, setSending] = useState(false);
  const [outcome, setOutcome] = useState<{ reply: TestCheckoutReply } | { error: string } | null>(
    null,
  );
  const run = async () => {
    setSending(true);
    try {
      setOutcome({ reply: await send({ rate: request.rate }) });
    } catch (error) {
      setOutcome({ error: error instanceof Error ? error.message : 'The test checkout failed.' });
    } finally {
      setSending(false);
    }
  };
  const reply = outcome && 'reply' in outcome ? outcome.reply : null;
  return (
    <section aria-label="Test checkout">
      <BlockStack gap="200">
        <Text as="h3" variant="headingSm">
          Test checkout (demo mode)
        </Text>
        <Text as="p" tone="subdued">
          Sends this cart and address through the local Shopify checkout, which asks the app for
          rates as Shopify does. Checkout quotes your saved, enabled ruleset, not unsaved changes on
          this page.
        </Text>
        <div>
          <Button loading={sending} onClick={run}>
            Send this cart as a test checkout
          </Button>
        </div>
        {outcome && 'error' in outcome && (
          <Banner tone="critical" title="The test checkout failed">
            <p>{outcome.error}</p>
          </Banner>
        )}
        {reply && (
          <Banner
            tone={reply.rates.length > 0 ? 'success' : 'warning'}
            title={
              reply.rates.length > 0 ? 'Checkout got rates from the app' : 'No rate from the app'
            }
          >
            <BlockStack gap="100">
              <p>{reply.message}</p>
              {reply.rates.map((rate) => (
                <p key={rate.service_code}>
                  {rate.service_name}: {formatCents(rate.total_price, currency)}
                </p>
              ))}
              {reply.asked && (
                <p>
                  {sameRates(reply.rates, previewRates)
                    ? 'Checkout got the same rates as this preview.'
                    : "Checkout's rates differ from this preview's: checkout quotes the saved, enabled ruleset."}
                </p>
              )}
              <p>
                <Link url="/recent-checkouts">Open Recent checkouts</Link>
              </p>
            </BlockStack>
          </Banner>
        )}
      </BlockStack>
    </section>
  );
}

/**
 * Each filter of the draft as a sentence, by where it runs and its id (the
 * preview keeps the editor's ids). Steps of other rules (the product rules',
 * in a ruleset's preview) are not in the draft and show their name only.
 */
function sentencesOf(draft: RatePreviewProps['draft'], format: SentenceFormat) {
  const product = draft.productRuleId;
  const scope = product ? 'product' : 'ruleset';
  return new Map(
    draft.rules.map((rule) => [stepKey(product, rule.id), describeFilter(rule, format, scope)]),
  );
}

/** A filter's place: the ruleset's, or product rule P's. */
const stepKey = (productRuleId: string | undefined, filterId: string) =>
  `${productRuleId ?? 'ruleset'} ${filterId}`;

export interface PreviewResultProps {
  answer: Pick<PreviewAnswer, 'rates' | 'trace'>;
  currency: string;
  sentences: ReadonlyMap<string, string>;
  products: readonly PreviewProduct[];
}

/** The rates and the step table of a quote: the preview's, and a recent checkout's. */
export function PreviewResult({ answer, currency, sentences, products }: PreviewResultProps) {
  const { rates, trace } = answer;
  const productNames = new Map(products.map((p) => [p.productId, p.name]));
  // Rates and the trace are in the currency of the quoted request, as checkout's are.
  const money = (cents: number | string) => formatCents(cents, currency);
  return (
    <section aria-label="Preview result">
      <BlockStack gap="300">
        <Text as="h3" variant="headingSm">
          Rates at checkout
        </Text>
        {trace.blocked ? (
          <Banner tone="info" title="Shipping blocked">
            <p>
              A Block Shipping rule matched this cart, so checkout gets no shipping rate from the
              app, not even the fallback rate. The step that blocked it is marked below.
            </p>
          </Banner>
        ) : rates.length === 0 ? (
          <Banner tone="info" title="No rates">
            <p>
              No rule matched this cart, so the app offers no shipping rate for it (it never gives
              shipping away by accident). Shopify then shows no backup rate from the app and keeps
              this answer for about 15 minutes for the same cart and address. A fallback rate in
              Settings would answer instead.
            </p>
          </Banner>
        ) : (
          <BlockStack gap="100">
            {rates.map((rate) => (
              <InlineStack key={rate.service_code} gap="200" blockAlign="center">
                <Text as="span" variant="bodyMd" fontWeight="semibold">
                  {rate.service_name}: {money(rate.total_price)}
                </Text>
                <Text as="span" tone="subdued">
                  {rate.service_code}
                  {rate.description ? ` · ${rate.description}` : ''}
                  {rate.min_delivery_date && rate.max_delivery_date
                    ? ` · ${arrivalText(rate.min_delivery_date, rate.max_delivery_date)}`
                    : ''}
                </Text>
              </InlineStack>
            ))}
          </BlockStack>
        )}
        <Text as="h3" variant="headingSm">
          Step by step
        </Text>
        {trace.steps.length === 0 ? (
          <Text as="p" tone="subdued">
            No rule was evaluated for this cart.
          </Text>
        ) : (
          <KeyboardScroll label="Step by step table">
            <DataTable
              columnContentTypes={['numeric', 'text', 'text', 'text', 'numeric', 'numeric', 'text']}
              headings={['Step', 'Rule', 'Matched', 'Action', 'Fee before', 'Fee after', 'Then']}
              rows={trace.steps.map((step, index) => [
                index + 1,
                <StepRule
                  key={index}
                  name={stepName(step, productNames)}
                  sentence={stepSentence(step, sentences)}
                />,
                step.matched ? 'Yes' : 'No',
                step.matched && step.actionType !== undefined
                  ? actionLabel(step.actionType, step.scope === 'product' ? 'product' : 'ruleset')
                  : '—',
                money(step.feeBefore),
                money(step.feeAfter),
                step.stopped ? 'Stopped' : step.matched ? 'Continued' : 'Skipped',
              ])}
            />
          </KeyboardScroll>
        )}
        {trace.steps.some((step) => compared(step) !== '') && (
          // Beside the table, not in it: a wider table scrolls, and a scrolling region needs focus.
          <BlockStack gap="100">
            {trace.steps.map((step, index) =>
              compared(step) ? (
                <Text as="p" key={index}>
                  Step {index + 1} compared: {compared(step)}.
                </Text>
              ) : null,
            )}
          </BlockStack>
        )}
        {trace.freeItems && (
          <Text as="p">
            Free-shipping items: {trace.freeItems.freeUnits} of {trace.freeItems.totalUnits} units,
            so the fee went from {money(trace.freeItems.feeBefore)} to{' '}
            {money(trace.freeItems.feeAfter)}.
          </Text>
        )}
        <Text as="p" fontWeight="semibold">
          {trace.blocked
            ? 'Blocked: no rates.'
            : trace.matchedAny
              ? `Regular fee: ${money(trace.fee)}`
              : rates.length > 0
                ? 'Nothing matched, so checkout gets your fallback rate.'
                : 'Nothing matched.'}
        </Text>
      </BlockStack>
    </section>
  );
}

/**
 * A Polaris DataTable that scrolls sideways (the step table on a phone, 390 px)
 * made reachable by keyboard: its scroll container takes focus and is named,
 * as WCAG 2.1.1 asks of a scrolling region (axe's scrollable-region-focusable).
 * Polaris gives the container no props, so it is found under this wrapper.
 */
function KeyboardScroll({ label, children }: { label: string; children: ReactNode }) {
  const wrapper = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const scroller = wrapper.current?.querySelector<HTMLElement>(
      '.Polaris-DataTable__ScrollContainer',
    );
    if (!scroller) return;
    scroller.tabIndex = 0;
    scroller.setAttribute('role', 'region');
    scroller.setAttribute('aria-label', label);
  });
  return <div ref={wrapper}>{children}</div>;
}

/** What the step's conditions compared and action 6's steps, in words; '' when none. */
export function compared(step: TraceStep): string {
  const parts: string[] = [];
  if (step.cartWeight !== undefined) parts.push(`cart weight ${formatGrams(step.cartWeight)}`);
  if (step.region !== undefined) parts.push(`region ${step.region || 'none'}`);
  if (step.postalCode !== undefined) parts.push(`postal code ${step.postalCode || 'none'}`);
  if (step.weightSteps !== undefined)
    parts.push(`${formatGrams(step.scopeWeight ?? 0)} in ${step.weightSteps} weight step(s)`);
  return parts.join(', ');
}

/** The sentence of the draft filter a step ran, if the step ran one of the draft's. */
function stepSentence(step: TraceStep, sentences: ReadonlyMap<string, string>) {
  const product = step.scope === 'product' ? (step.productRuleId ?? '') : undefined;
  return sentences.get(stepKey(product, step.filterId));
}

/** The rule's name, and its sentence beneath, wrapping (the table's cells do not wrap). */
function StepRule({ name, sentence }: { name: string; sentence: string | undefined }) {
  return (
    <div style={{ whiteSpace: 'normal', minWidth: '16rem', maxWidth: '28rem' }}>
      <Text as="p">{name}</Text>
      {sentence && (
        <Text as="p" tone="subdued">
          {sentence}
        </Text>
      )}
    </div>
  );
}

function stepName(step: TraceStep, productNames: Map<string, string>): string {
  const name = step.filterName || 'Unnamed rule';
  if (step.scope !== 'product') return `Global: ${name}`;
  const product = step.productId ? (productNames.get(step.productId) ?? step.productId) : '';
  return `Product rule${product ? ` (${product})` : ''}: ${name}`;
}
