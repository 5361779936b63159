import {
  BlockStack,
  Card,
  InlineStack,
  Link,
  List,
  SkeletonBodyText,
  Text,
} from '@shopify/polaris';
import { Component, lazy, Suspense, type ReactNode } from 'react';
import type { AnalyticsFilterJson, AnalyticsReply } from '../api';
import { ErrorState, LoadingState } from '../components/ListState';
import { useGet } from '../components/useLoader';
import { useShopCurrency } from '../money/useShopCurrency';
import {
  checkouts,
  count,
  dayLabel,
  editorUrl,
  feeBucketLabel,
  filterDetail,
  OUTCOMES,
  ownerLabel,
  times,
} from './words';

/** The window the Dashboard shows (the most the API keeps). */
export const ANALYTICS_DAYS = 30;
/** Filters listed under "matched most". */
const TOP = 5;

// polaris-viz is large: its chunk loads after the Dashboard has shown.
const charts = () => import('./AnalyticsCharts');
const DailyChart = lazy(() => charts().then((m) => ({ default: m.DailyChart })));
const FeeChart = lazy(() => charts().then((m) => ({ default: m.FeeChart })));

const TITLE = `Checkouts in the last ${ANALYTICS_DAYS} days`;

/**
 * The Dashboard's analytics: checkouts per day by the rate they got, the
 * regular rate's fees, the filters that matched most and those that matched
 * none. Each chart has a heading and its data as a table for screen readers.
 */
export function AnalyticsCard() {
  const currency = useShopCurrency();
  const loaded = useGet<AnalyticsReply>('/api/analytics', { query: { days: ANALYTICS_DAYS } });

  if (loaded.error) return <ErrorState loaded={loaded} />;
  if (!loaded.data) return <LoadingState label="Loading checkout analytics" />;
  const reply = loaded.data;

  return (
    <Card>
      <section aria-label={TITLE}>
        <BlockStack gap="400">
          <Text as="h2" variant="headingMd">
            {TITLE}
          </Text>
          {reply.countingSince === null ? (
            <Text as="p" tone="subdued">
              No checkout counted yet: counting starts with the next checkout Ratesmith answers.
            </Text>
          ) : (
            <Counted reply={reply} currency={currency} />
          )}
        </BlockStack>
      </section>
    </Card>
  );
}

function Counted({ reply, currency }: { reply: AnalyticsReply; currency: string | null }) {
  const since =
    reply.countingSince && reply.countingSince > reply.from
      ? ` (counted since ${dayLabel(reply.countingSince)})`
      : '';
  const top = reply.filters
    .filter((filter) => filter.matched > 0)
    .sort((a, b) => b.matched - a.matched)
    .slice(0, TOP);
  const never = reply.filters.filter((filter) => filter.neverMatched);

  return (
    <>
      <Text as="p">
        {checkouts(reply.checkouts)} from {dayLabel(reply.from)} to {dayLabel(reply.to)}
        {since}.
      </Text>
      <Figure title="Checkouts per day by rate">
        <ChartSlot>
          <DailyChart daily={reply.daily} />
        </ChartSlot>
        <Legend />
        <DataTable
          caption="Checkouts per day by rate"
          head={['Day', ...OUTCOMES.map((o) => o.label)]}
          rows={reply.daily.map((day) => [
            dayLabel(day.day),
            ...OUTCOMES.map((o) => count(o.of(day))),
          ])}
        />
      </Figure>
      <Figure title="Regular rate fees">
        <ChartSlot>
          <FeeChart fees={reply.fees} currency={currency} />
        </ChartSlot>
        <DataTable
          caption="Checkouts by regular rate fee"
          head={['Fee', 'Checkouts']}
          rows={reply.fees.map((bucket) => [feeBucketLabel(bucket, currency), count(bucket.count)])}
        />
      </Figure>
      <BlockStack gap="200">
        <Text as="h3" variant="headingSm">
          Rules that matched most
        </Text>
        {top.length === 0 ? (
          <Text as="p" tone="subdued">
            No rule in use matched a checkout yet.
          </Text>
        ) : (
          <List type="number">
            {top.map((filter) => (
              <List.Item key={`${filter.ownerId}/${filter.filterId}`}>
                <FilterLink filter={filter} />: matched {times(filter.matched)},{' '}
                {filterDetail(filter, currency)}
              </List.Item>
            ))}
          </List>
        )}
      </BlockStack>
      <BlockStack gap="200">
        <Text as="h3" variant="headingSm">
          Rules no checkout matched in {reply.days} days
        </Text>
        {never.length === 0 ? (
          <Text as="p" tone="subdued">
            Every rule in use matched at least one checkout.
          </Text>
        ) : (
          <List type="bullet">
            {never.map((filter) => (
              <List.Item key={`${filter.ownerId}/${filter.filterId}`}>
                <FilterLink filter={filter} />
              </List.Item>
            ))}
          </List>
        )}
      </BlockStack>
    </>
  );
}

/** A filter by name and owner, opening its editor. */
function FilterLink({ filter }: { filter: AnalyticsFilterJson }) {
  return (
    <>
      <Link url={editorUrl(filter)}>{filter.filterName || 'Untitled rule'}</Link> in{' '}
      {ownerLabel(filter)}
    </>
  );
}

/** A lazily drawn chart: a skeleton while its chunk loads, a sentence if it cannot. */
function ChartSlot({ children }: { children: ReactNode }) {
  return (
    <ChartBoundary>
      <Suspense fallback={<SkeletonBodyText lines={6} />}>{children}</Suspense>
    </ChartBoundary>
  );
}

/** A chart chunk that failed to load (a lost connection) leaves the rest of the Dashboard. */
class ChartBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? (
      <Text as="p" tone="subdued">
        The chart could not be drawn. Reload the page to try again.
      </Text>
    ) : (
      this.props.children
    );
  }
}

/** The daily chart's colours in words. */
function Legend() {
  return (
    <InlineStack as="ul" gap="400">
      {OUTCOMES.map(({ label, color }) => (
        <InlineStack as="li" key={label} gap="100" blockAlign="center" wrap={false}>
          <span className="rs-swatch" style={{ background: color }} />
          <Text as="span" variant="bodySm">
            {label}
          </Text>
        </InlineStack>
      ))}
    </InlineStack>
  );
}

function Figure({ title, children }: { title: string; children: ReactNode }) {
  return (
    <BlockStack gap="200">
      <Text as="h3" variant="headingSm">
        {title}
      </Text>
      {children}
    </BlockStack>
  );
}

/** A chart's figures for screen readers (the chart itself is hidden from them). */
function DataTable({ caption, head, rows }: { caption: string; head: string[]; rows: string[][] }) {
  return (
    <table className="rs-visually-hidden">
      <caption>{caption}</caption>
      <thead>
        <tr>
          {head.map((cell) => (
            <th key={cell} scope="col">
              {cell}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map(([first, ...rest]) => (
          <tr key={first}>
            <th scope="row">{first}</th>
            {rest.map((cell, index) => (
              <td key={head[index + 1]}>{cell}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
