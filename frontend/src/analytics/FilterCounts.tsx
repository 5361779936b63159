import { Badge, Button, InlineStack, Text } from '@shopify/polaris';
import { messageOf, type FilterCountsJson } from '../api';
import type { FilterAnalytics } from './useFilterAnalytics';
import { checkouts, dayLabel, filterDetail, times } from './words';

/**
 * Beside a saved filter in the editor: how often checkout matched it in the
 * window, where it stopped and what it did to the fee; a warning badge, in
 * words, when it matched none while in use.
 */
export function FilterCounts({
  counts,
  days,
  currency,
}: {
  counts: FilterCountsJson;
  days: number;
  currency: string | null;
}) {
  return (
    <InlineStack gap="200" blockAlign="center">
      {counts.neverMatched ? (
        <Badge tone="warning">{`No checkout matched in ${days} days`}</Badge>
      ) : (
        <Text as="span">
          Matched {times(counts.matched)} in {days} days
        </Text>
      )}
      {counts.matched > 0 && (
        <Text as="span" tone="subdued">
          {filterDetail(counts, currency)}
        </Text>
      )}
    </InlineStack>
  );
}

/**
 * The editor's one line about the counts: loading, failed (with Retry), not in
 * use, or the window they cover. Never in the way of editing or Save All.
 */
export function FilterAnalyticsNote({ analytics }: { analytics: FilterAnalytics }) {
  const { loaded } = analytics;
  const reply = loaded.data;
  if (loaded.error)
    return (
      <InlineStack gap="200" blockAlign="center">
        <Text as="p" tone="critical">
          {messageOf(loaded.error, 'Checkout counts could not be loaded.')}
        </Text>
        <Button variant="plain" onClick={() => void loaded.reload()} loading={loaded.loading}>
          Retry counts
        </Button>
      </InlineStack>
    );
  if (!reply)
    return (
      <Text as="p" tone="subdued">
        Loading checkout counts…
      </Text>
    );
  if (!reply.inUse)
    return (
      <Text as="p" tone="subdued">
        Not in use at checkout: no counts.
      </Text>
    );
  if (reply.countingSince === null)
    return (
      <Text as="p" tone="subdued">
        No checkout counted yet: counting starts with the next checkout.
      </Text>
    );
  const since =
    reply.countingSince > reply.from ? ` (counted since ${dayLabel(reply.countingSince)})` : '';
  return (
    <Text as="p" tone="subdued">
      Checkout counts of the last {reply.days} days: {checkouts(reply.checkouts)}
      {since}. Rules not saved yet have none.
    </Text>
  );
}
