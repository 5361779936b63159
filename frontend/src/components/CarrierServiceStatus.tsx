import { Badge, Banner, BlockStack, Card, InlineStack, Link, Text } from '@shopify/polaris';
import { useState } from 'react';
import { messageOf, useApi, type CarrierServiceReply, type CarrierServiceStatus } from '../api';
import { useToast } from '../toast';
import { zonesWord } from '../zones/coverage';
import { useNoticeSettled } from './NoticesFirst';
import { useGet } from './useLoader';

type Tone = 'warning' | 'critical' | 'info';

/** What each state means for checkout, and what the merchant can do. */
const PROBLEMS: Record<
  Exclude<CarrierServiceStatus['state'], 'active'>,
  { tone: Tone; title: string; body: string }
> = {
  needs_plan: {
    tone: 'warning',
    title: 'Checkout cannot use Ratesmith on your current Shopify plan',
    body:
      'Shopify asks apps like Ratesmith for shipping rates only on plans with third-party calculated ' +
      'rates: Advanced Shopify or higher, the Shopify plan billed yearly, or a development store. ' +
      'Change your plan, or ask Shopify Support to enable calculated rates, then check again.',
  },
  inactive: {
    tone: 'warning',
    title: 'Ratesmith is disabled in your shipping settings',
    body:
      'Shopify reports Ratesmith as disabled, so checkout does not ask it for rates. This happens ' +
      'after a plan change. Check again to enable it again.',
  },
  error: {
    tone: 'critical',
    title: 'Ratesmith could not confirm its connection to checkout',
    body:
      'Checkout may not show Ratesmith rates until this is resolved. Ratesmith checks again ' +
      'automatically; you can also check now.',
  },
  unknown: {
    tone: 'info',
    title: 'Ratesmith has not confirmed its connection to checkout yet',
    body: 'This takes a moment after installing. Check again to confirm it now.',
  },
};

function useCarrierService() {
  const api = useApi();
  const toast = useToast();
  const loaded = useGet<CarrierServiceReply>('/api/carrier-service');
  const [checking, setChecking] = useState(false);
  const checkAgain = async () => {
    setChecking(true);
    try {
      const reply = await api.post<CarrierServiceReply>('/api/carrier-service/check', {});
      loaded.setData(() => reply);
      if (reply.carrier_service.state === 'active') toast.success(reply.message);
      else toast.error('Checked with Shopify: checkout still cannot use Ratesmith.');
    } catch (err) {
      toast.error(messageOf(err, 'The check did not complete. Please try again.'));
    } finally {
      setChecking(false);
    }
  };
  return { loaded, checking, checkAgain };
}

function ProblemBanner({
  status,
  checking,
  onCheck,
}: {
  status: CarrierServiceStatus;
  checking: boolean;
  onCheck: () => void;
}) {
  if (status.state === 'active') return null;
  const problem = PROBLEMS[status.state];
  return (
    <Banner
      tone={problem.tone}
      title={problem.title}
      action={{ content: 'Check again', onAction: onCheck, loading: checking }}
    >
      <BlockStack gap="100">
        <p>{problem.body}</p>
        {status.detail && <p>Details: {status.detail}</p>}
      </BlockStack>
    </Banner>
  );
}

/**
 * The Dashboard's warning when checkout does not call Ratesmith; nothing
 * while it loads, when all is well, or when the status cannot be read (the
 * Settings page shows that).
 */
export function CarrierServiceBanner() {
  const { loaded, checking, checkAgain } = useCarrierService();
  useNoticeSettled(!loaded.loading);
  const status = loaded.data?.carrier_service;
  if (!status) return null;
  return <ProblemBanner status={status} checking={checking} onCheck={() => void checkAgain()} />;
}

const BADGE: Record<
  CarrierServiceStatus['state'],
  { tone: 'success' | 'warning' | 'critical' | 'info'; label: string }
> = {
  active: { tone: 'success', label: 'Enabled' },
  inactive: { tone: 'warning', label: 'Disabled' },
  needs_plan: { tone: 'warning', label: 'Plan required' },
  error: { tone: 'critical', label: 'Error' },
  unknown: { tone: 'info', label: 'Not checked yet' },
};

/** Where checkout asks Ratesmith, from the last read of the shop's delivery profiles. */
function ZoneCoverage({ zones }: { zones: NonNullable<CarrierServiceStatus['zones']> }) {
  if (zones.asking === 0)
    return (
      <Banner
        tone="warning"
        title="In no shipping zone: checkout never asks Ratesmith"
        secondaryAction={{ content: 'Choose shipping zones', url: '/shipping-zones' }}
      >
        <p>
          Shopify asks Ratesmith for rates only in the shipping zones it is in. Add it to the zones
          it should price.
        </p>
      </Banner>
    );
  return (
    <Text as="p">
      Asked in {zones.asking} of {zonesWord(zones.total)}.{' '}
      <Link url="/shipping-zones">Choose shipping zones</Link>
    </Text>
  );
}

/** The Settings card: the state as a badge, when it was checked, the problem banner, and zone coverage. */
export function CarrierServiceCard() {
  const { loaded, checking, checkAgain } = useCarrierService();
  const status = loaded.data?.carrier_service;
  const badge = status && BADGE[status.state];
  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack gap="200" blockAlign="center">
          <Text as="h2" variant="headingMd">
            Checkout connection
          </Text>
          {badge && <Badge tone={badge.tone}>{badge.label}</Badge>}
        </InlineStack>
        {loaded.error && !status ? (
          <Banner
            tone="critical"
            title="The checkout connection could not be loaded"
            action={{
              content: 'Retry',
              onAction: () => void loaded.reload(),
              loading: loaded.loading,
            }}
          >
            <p>{messageOf(loaded.error, 'Data Fetch Failed')}</p>
          </Banner>
        ) : !status ? (
          <Text as="p" tone="subdued">
            Checking the checkout connection…
          </Text>
        ) : status.state === 'active' ? (
          <Text as="p">
            Shopify asks Ratesmith for shipping rates at checkout.
            {status.checked_at && ` Last checked ${new Date(status.checked_at).toLocaleString()}.`}
          </Text>
        ) : (
          <ProblemBanner status={status} checking={checking} onCheck={() => void checkAgain()} />
        )}
        {status?.zones && <ZoneCoverage zones={status.zones} />}
      </BlockStack>
    </Card>
  );
}
