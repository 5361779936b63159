import { Banner, BlockStack, Button, Card, Layout, Page } from '@shopify/polaris';
import { CarrierServiceBanner } from '../components/CarrierServiceStatus';
import { CheckoutOutcomesCard } from '../components/CheckoutOutcomesCard';
import { LoadingState } from '../components/ListState';
import { NoticeSettled, NoticesFirst, UnsettledNotice } from '../components/NoticesFirst';
import { WelcomeIntro } from '../components/TrainingVideo';
import { ActivityCard } from '../versions/ActivityCard';
import { lazy, Suspense } from 'react';
import { useRulesets } from '../global-rules/useRulesets';

// Its own chunk (and the charts another): the Dashboard's first load stays within its budget.
const AnalyticsCard = lazy(() =>
  import('../analytics/AnalyticsCard').then((m) => ({ default: m.AnalyticsCard })),
);

// Its own chunk too: shown only while no ruleset is enabled.
const NoRulesetNotice = lazy(() =>
  import('../global-rules/NoRulesetNotice').then((m) => ({ default: m.NoRulesetNotice })),
);

// Its own chunk too: the country names and the zone texts are needed only once zones are read.
const ZoneNotices = lazy(() =>
  import('../zones/ZoneNotices').then((m) => ({ default: m.ZoneNotices })),
);

export default function Dashboard() {
  // Read once for the page: the checkouts card links to the enabled ruleset, the zone
  // notices read its conditions.
  const rulesets = useRulesets();
  // Nothing is live: checkout gets no rates from a ruleset, and the page says so first.
  const noneEnabled = rulesets.data !== undefined && rulesets.data.shop.global_rule_id === null;
  return (
    <Page title="Dashboard">
      <NoticesFirst
        notices={
          <BlockStack gap="400">
            {/* Whether a ruleset is enabled decides the notice below: the cards wait for it. */}
            <NoticeSettled when={!rulesets.loading} />
            <CarrierServiceBanner />
            {noneEnabled && (
              <Suspense fallback={<UnsettledNotice />}>
                <NoRulesetNotice />
              </Suspense>
            )}
            <Suspense fallback={<UnsettledNotice />}>
              <ZoneNotices enabledRulesetId={rulesets.data?.shop.global_rule_id} />
            </Suspense>
          </BlockStack>
        }
      >
        <Layout>
          <Layout.Section>
            <CheckoutOutcomesCard rulesets={rulesets} />
          </Layout.Section>
          <Layout.Section>
            <Suspense fallback={<LoadingState label="Loading checkout analytics" />}>
              <AnalyticsCard />
            </Suspense>
          </Layout.Section>
          <Layout.Section>
            <Card>
              <BlockStack gap="400">
                <WelcomeIntro>
                  Ratesmith sets the shipping fee your customers see at checkout. The enabled
                  ruleset&apos;s rules match on the destination and the cart and make the
                  cart&apos;s fee. Then each product rule runs for carts holding its product and
                  changes that same fee: it adds to it, takes its product&apos;s share off it (Make
                  Shipping Free For This Item), or sets the whole cart&apos;s fee (Set Shipping Fee,
                  which replaces what the rules before it made). The training video shows how to set
                  up your first ruleset.
                </WelcomeIntro>
                <Banner tone="info" title="No rules yet?">
                  <p>
                    Until a ruleset is enabled and one of its rules matches, Ratesmith offers no
                    shipping rate at checkout, or only the fallback rate if one is enabled in
                    Settings. If you have no rules yet, you may disable Ratesmith in Settings ›
                    Shipping and delivery of your Shopify admin, so checkout uses your other rates
                    meanwhile.
                  </p>
                </Banner>
                <BlockStack inlineAlign="start">
                  <Button variant="primary" url="/global-rules">
                    Edit Rules
                  </Button>
                </BlockStack>
              </BlockStack>
            </Card>
          </Layout.Section>
          <Layout.Section>
            <ActivityCard />
          </Layout.Section>
        </Layout>
      </NoticesFirst>
    </Page>
  );
}
