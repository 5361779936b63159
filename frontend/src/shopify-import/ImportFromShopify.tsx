import { Banner, BlockStack, Button, InlineStack, List, Text } from '@shopify/polaris';
import type { ShippingImportReply } from '@ratesmith/contracts/edge';
import { useState } from 'react';
import { messageOf, useApi } from '../api';
import { formatAmount } from '../money/money';
import { useShopCurrency } from '../money/useShopCurrency';
import { useToast } from '../toast';

/**
 * Reading every profile's rates may take several Shopify calls: the gateway waits up to
 * 14 s for them, after the store currency (kept after its first read, else up to 14 s too).
 */
const IMPORT_TIMEOUT_MS = 30_000;

type State =
  | { step: 'idle' }
  | { step: 'loading' }
  | { step: 'failed'; message: string }
  | { step: 'plan'; reply: ShippingImportReply; confirming: boolean };

/**
 * "Import from Shopify": the shop's own shipping rates (Settings › Shipping
 * and delivery) as one new ruleset. Review shows the plan, nothing written;
 * Confirm writes it, disabled, next to the enabled ruleset
 * (docs/shopify.md, "Importing the shop's Shopify rates").
 */
export function ImportFromShopify() {
  const api = useApi();
  const toast = useToast();
  const [state, setState] = useState<State>({ step: 'idle' });

  const review = async () => {
    setState({ step: 'loading' });
    try {
      const reply = await api.get<ShippingImportReply>('/api/shipping-import', {
        timeoutMs: IMPORT_TIMEOUT_MS,
      });
      setState({ step: 'plan', reply, confirming: false });
    } catch (err) {
      setState({
        step: 'failed',
        message: messageOf(err, 'Your Shopify shipping rates could not be read. Please try again.'),
      });
    }
  };

  const confirm = async (plan: ShippingImportReply) => {
    setState({ step: 'plan', reply: plan, confirming: true });
    try {
      const reply = await api.post<ShippingImportReply>(
        '/api/shipping-import',
        { plan: plan.plan },
        { timeoutMs: IMPORT_TIMEOUT_MS },
      );
      setState({ step: 'plan', reply, confirming: false });
      toast.success(reply.message);
    } catch (err) {
      setState({ step: 'plan', reply: plan, confirming: false });
      toast.error(messageOf(err, 'The rates could not be imported. Please try again.'));
    }
  };

  if (state.step !== 'plan')
    return (
      <BlockStack gap="400">
        <InlineStack>
          <Button onClick={() => void review()} loading={state.step === 'loading'}>
            Review the import
          </Button>
        </InlineStack>
        {state.step === 'loading' && (
          <Text as="p" tone="subdued">
            Reading your shipping rates from Shopify…
          </Text>
        )}
        {state.step === 'failed' && (
          <Banner tone="critical" title="Your Shopify shipping rates could not be read">
            <p>{state.message}</p>
          </Banner>
        )}
      </BlockStack>
    );

  const { reply, confirming } = state;
  const done = reply.ruleset !== undefined;
  return (
    <BlockStack gap="400">
      <Text as="h3" variant="headingMd">
        {done
          ? `Imported as “${reply.ruleset!.name}”`
          : 'What importing your Shopify rates will create'}
      </Text>
      <Text as="p" fontWeight="medium">
        {reply.summary}
      </Text>
      {reply.skipped.length > 0 && (
        <Banner tone="warning" title="These rates cannot be imported and stay only in Shopify">
          <List>
            {reply.skipped.map((s, i) => (
              <List.Item key={i}>
                {s.rate} ({s.zone}
                {s.profile && s.profile !== 'General profile' ? `, ${s.profile}` : ''}): {s.reason}.
              </List.Item>
            ))}
          </List>
        </Banner>
      )}
      {reply.rules.length === 0 ? (
        <Text as="p">There is no rate Ratesmith can import: nothing will be created.</Text>
      ) : (
        <BlockStack gap="200">
          <Text as="h4" variant="headingSm">
            Ruleset “{reply.ruleset_name}”, disabled until you enable it
          </Text>
          <PlannedRules rules={reply.rules} />
        </BlockStack>
      )}
      {done ? (
        <InlineStack>
          <Button url="/global-rules">Go to Global Rules</Button>
        </InlineStack>
      ) : (
        <InlineStack gap="200">
          <Button
            variant="primary"
            onClick={() => void confirm(reply)}
            loading={confirming}
            disabled={reply.rules.length === 0}
          >
            Confirm import
          </Button>
          <Button onClick={() => setState({ step: 'idle' })} disabled={confirming}>
            Cancel
          </Button>
        </InlineStack>
      )}
    </BlockStack>
  );
}

/** The new ruleset's rules, prices in the store's currency (read only once a plan shows). */
function PlannedRules({ rules }: { rules: ShippingImportReply['rules'] }) {
  const currency = useShopCurrency();
  return (
    <List type="number">
      {rules.map((r, i) => (
        <List.Item key={i}>
          {r.zone}: {r.rate},{' '}
          {Number(r.price) === 0 ? 'free' : formatAmount(Number(r.price), currency)}
        </List.Item>
      ))}
    </List>
  );
}
