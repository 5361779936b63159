import { BlockStack, Card, InlineStack, Link, Text } from '@shopify/polaris';
import type { CheckoutCartJson, CheckoutOutcomesReply, GlobalRulesList } from '../api';
import { formatCents } from '../money/money';
import { cartPresetQuery } from '../preview/cart-link';
import { ErrorState, LoadingState } from './ListState';
import { useGet, type Loaded } from './useLoader';

/** Carts listed on the card; the API keeps about 20. */
const LISTED = 5;

const checkouts = (n: number) => `${n.toLocaleString('en-US')} checkout${n === 1 ? '' : 's'}`;

/** The enabled ruleset's editor with the cart in its preview. */
const previewUrl = (rulesetId: string, cart: CheckoutCartJson) =>
  `/edit-global-rule/${encodeURIComponent(rulesetId)}?${cartPresetQuery(cart)}`;

function cartSummary(cart: CheckoutCartJson): string {
  const units = cart.lines.reduce((sum, line) => sum + line.quantity, 0);
  const total = cart.lines.reduce((sum, line) => sum + line.price * line.quantity, 0);
  // The code, not the name: the country list would weigh on the Dashboard's first load.
  const where = cart.country ? `To ${cart.country}` : 'No country';
  return `${where}, ${units} item${units === 1 ? '' : 's'}, ${formatCents(total, cart.currency)}`;
}

/**
 * The Dashboard's "checkouts your rules missed": how many checkouts of the last
 * 7 days got the fallback rate or no rate, and links that open such a cart in
 * the enabled ruleset's preview. `rulesets` is the Dashboard's one read of
 * /api/global-rules (its shipping-zone notices read the enabled ruleset too).
 */
export function CheckoutOutcomesCard({ rulesets }: { rulesets: Loaded<GlobalRulesList> }) {
  const loaded = useGet<CheckoutOutcomesReply>('/api/checkout-outcomes');

  const error = loaded.error ?? rulesets.error;
  if (error)
    return (
      <ErrorState
        loaded={{
          error,
          loading: loaded.loading || rulesets.loading,
          reload: async () => {
            if (loaded.error) void loaded.reload();
            if (rulesets.error) void rulesets.reload();
          },
        }}
      />
    );
  if (!loaded.data || !rulesets.data) return <LoadingState label="Loading checkouts" />;
  const outcomes = loaded.data;
  /** The enabled ruleset, whose editor previews the carts; null when none is. */
  const activeRulesetId = rulesets.data.shop.global_rule_id;
  const days = `in the last ${outcomes.days} days`;
  // Carts a Block Shipping rule answered got no rate on purpose: not missed.
  const missed = outcomes.no_rate - outcomes.blocked;
  const newest = (outcome: CheckoutCartJson['outcome']) =>
    outcomes.carts.find((cart) => cart.outcome === outcome);

  const line = (count: number, what: string, outcome: CheckoutCartJson['outcome']) => {
    if (count === 0) return null;
    const cart = newest(outcome);
    return (
      <Text as="p">
        {checkouts(count)} {days} got {what}
        {cart && activeRulesetId ? (
          <>
            {' — '}
            <Link url={previewUrl(activeRulesetId, cart)}>see which carts</Link>
          </>
        ) : null}
      </Text>
    );
  };

  return (
    <Card>
      <section aria-label="Checkouts your rules missed">
        <BlockStack gap="300">
          <Text as="h2" variant="headingMd">
            Checkouts your rules missed
          </Text>
          {outcomes.fallback + missed === 0 ? (
            activeRulesetId === null ? (
              // Nothing missed, but nothing is live either: no claim that rules matched.
              <Text as="p" tone="subdued">
                No checkout {days} got the fallback rate or no rate, but no ruleset is enabled now.{' '}
                <Link url="/global-rules">Enable a ruleset</Link> so that its rules price your
                carts.
              </Text>
            ) : (
              <Text as="p" tone="subdued">
                No checkout {days} got the fallback rate or no rate: your rules matched every cart
                {outcomes.blocked > 0 ? ' they were meant for' : ''}.
              </Text>
            )
          ) : (
            <>
              {line(outcomes.fallback, 'the fallback rate', 'fallback')}
              {line(missed, 'no rate from Ratesmith', 'no_rate')}
              {missed > 0 && !outcomes.fallback_enabled && (
                <Text as="p" tone="subdued">
                  A <Link url="/settings">fallback rate in Settings</Link> gives such carts a rate
                  instead of none.
                </Text>
              )}
              {activeRulesetId === null ? (
                <Text as="p" tone="subdued">
                  <Link url="/global-rules">Enable a ruleset</Link> to open these carts in its
                  preview.
                </Text>
              ) : (
                outcomes.carts.length > 0 && (
                  <BlockStack gap="100">
                    <Text as="h3" variant="headingSm">
                      Latest carts
                    </Text>
                    {outcomes.carts.slice(0, LISTED).map((cart, index) => (
                      <InlineStack key={`${cart.at}-${index}`} gap="200">
                        <Text as="span">{cartSummary(cart)}</Text>
                        <Text as="span" tone="subdued">
                          {cart.outcome === 'fallback' ? 'fallback rate' : 'no rate'}
                        </Text>
                        <Link
                          url={previewUrl(activeRulesetId, cart)}
                          accessibilityLabel={`Preview cart ${index + 1}: ${cartSummary(cart)}`}
                        >
                          Preview
                        </Link>
                      </InlineStack>
                    ))}
                  </BlockStack>
                )
              )}
            </>
          )}
          {outcomes.blocked > 0 && (
            <Text as="p" tone="subdued">
              {checkouts(outcomes.blocked)} {days} got no rate because a Block Shipping rule
              matched, as your rules say.
            </Text>
          )}
        </BlockStack>
      </section>
    </Card>
  );
}
