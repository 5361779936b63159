import { arrivalText } from '../delivery-dates';
import {
  Banner,
  BlockStack,
  Button,
  Card,
  DataTable,
  InlineStack,
  Link,
  Page,
  Text,
} from '@shopify/polaris';
import { useCallback, useState } from 'react';
import {
  useApi,
  type GlobalRulesList,
  type RecentCheckoutJson,
  type RecentCheckoutReply,
  type RecentCheckoutsReply,
} from '../api';
import { ErrorState, ListState, LoadingState } from '../components/ListState';
import { useGet, useLoader } from '../components/useLoader';
import { formatCents } from '../money/money';
import { cartPresetQuery } from '../preview/cart-link';
import { PreviewResult } from '../preview/RatePreview';
import { isAppBridgeEnabled } from '../shell/environment';

/** A past checkout's filters may have changed since: its steps show their names only. */
const NO_SENTENCES: ReadonlyMap<string, string> = new Map();

interface Loaded {
  recent: RecentCheckoutsReply;
  /** The enabled ruleset, whose editor previews a checkout's cart; null when none is. */
  activeRulesetId: string | null;
}

const units = (c: RecentCheckoutJson) => c.lines.reduce((sum, line) => sum + line.quantity, 0);
const cartTotal = (c: RecentCheckoutJson) =>
  formatCents(
    c.lines.reduce((sum, line) => sum + line.price * line.quantity, 0),
    c.currency,
  );
const when = (c: RecentCheckoutJson) =>
  new Date(c.at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
const answered = (c: RecentCheckoutJson) =>
  c.rates.length === 0
    ? 'No rate'
    : c.rates
        .map(
          (rate) =>
            `${rate.service_name}: ${formatCents(rate.total_price, c.currency)}` +
            (rate.min_delivery_date && rate.max_delivery_date
              ? ` (${arrivalText(rate.min_delivery_date, rate.max_delivery_date)})`
              : ''),
        )
        .join(', ');

/** The enabled ruleset's editor with the checkout's cart in its preview. */
const previewUrl = (rulesetId: string, c: RecentCheckoutJson) =>
  `/edit-global-rule/${encodeURIComponent(rulesetId)}?${cartPresetQuery(c)}`;

/**
 * Recent checkouts: carrier callbacks the rate engine sampled, each opening
 * the step table the preview shows, and the cart opened in the enabled
 * ruleset's preview to replay it against the current or an edited ruleset.
 */
export default function RecentCheckouts() {
  const api = useApi();
  const [openId, setOpenId] = useState<string | null>(null);
  const list = useLoader(
    useCallback(
      async (signal: AbortSignal): Promise<Loaded> => {
        const [recent, rulesets] = await Promise.all([
          api.get<RecentCheckoutsReply>('/api/recent-checkouts', { signal }),
          api.get<GlobalRulesList>('/api/global-rules', { signal }),
        ]);
        return { recent, activeRulesetId: rulesets.shop.global_rule_id };
      },
      [api],
    ),
  );
  const checkouts = list.data?.recent.checkouts ?? [];

  return (
    <Page title="Recent checkouts">
      <BlockStack gap="400">
        <Text as="p" tone="subdued">
          A sample of the checkouts Ratesmith answered (a few a minute per store), with what each
          rule did. Figures only: the destination country, the products, prices and quantities;
          never who ordered or where beyond the country.
          {list.data
            ? ` Kept for ${list.data.recent.retention_days} days, at most the latest ${list.data.recent.kept_at_most}.`
            : ''}
        </Text>
        {list.data && !list.data.recent.enabled && (
          <Banner tone="info" title="Recent checkouts are off">
            <p>
              No new checkout is kept. <Link url="/settings">Turn them on in Settings</Link>.
            </p>
          </Banner>
        )}
        <ListState
          loaded={list}
          empty={checkouts.length === 0}
          label="Loading recent checkouts"
          emptyHeading="No checkouts yet"
          emptyText={
            isAppBridgeEnabled()
              ? 'Checkouts appear here a few seconds after Shopify asks Ratesmith for rates.'
              : // Demo mode has no store front: the preview's test checkout is the way to make one.
                'Checkouts appear here a few seconds after Shopify asks Ratesmith for rates. In demo mode, preview a cart under a ruleset and choose "Send this cart as a test checkout".'
          }
        >
          <Card padding="0">
            <DataTable
              columnContentTypes={['text', 'text', 'numeric', 'numeric', 'text', 'numeric', 'text']}
              headings={['When', 'Country', 'Items', 'Cart total', 'Rates answered', 'Latency', '']}
              rows={checkouts.map((c) => [
                when(c),
                c.country || '—',
                units(c),
                cartTotal(c),
                answered(c),
                `${c.latency_ms.toFixed(2)} ms`,
                <Button
                  key={c.id}
                  variant="plain"
                  pressed={openId === c.id}
                  onClick={() => setOpenId(c.id)}
                  accessibilityLabel={`View trace of the checkout of ${when(c)}`}
                >
                  View trace
                </Button>,
              ])}
            />
          </Card>
        </ListState>
        {openId && list.data && (
          <CheckoutTrace key={openId} id={openId} activeRulesetId={list.data.activeRulesetId} />
        )}
      </BlockStack>
    </Page>
  );
}

function CheckoutTrace({ id, activeRulesetId }: { id: string; activeRulesetId: string | null }) {
  const one = useGet<RecentCheckoutReply>(`/api/recent-checkouts/${encodeURIComponent(id)}`);
  if (one.error) return <ErrorState loaded={one} />;
  if (!one.data) return <LoadingState label="Loading the trace" />;
  const { checkout } = one.data;
  return (
    <Card>
      <section aria-label="Checkout trace">
        <BlockStack gap="300">
          <Text as="h2" variant="headingMd">
            Checkout of {when(checkout)}
          </Text>
          <Text as="p">
            To {checkout.country || 'no country'}, {units(checkout)} item
            {units(checkout) === 1 ? '' : 's'}, {cartTotal(checkout)}, answered in{' '}
            {checkout.latency_ms.toFixed(2)} ms.
          </Text>
          <InlineStack gap="200">
            {activeRulesetId ? (
              <Link url={previewUrl(activeRulesetId, checkout)}>Open in preview</Link>
            ) : (
              <Text as="span" tone="subdued">
                <Link url="/global-rules">Enable a ruleset</Link> to replay this cart in its
                preview.
              </Text>
            )}
          </InlineStack>
          <PreviewResult
            answer={{
              rates: checkout.rates.map((rate) => ({
                ...rate,
                description: '',
                currency: checkout.currency,
              })),
              trace: checkout.trace,
            }}
            currency={checkout.currency}
            sentences={NO_SENTENCES}
            products={[]}
          />
        </BlockStack>
      </section>
    </Card>
  );
}
