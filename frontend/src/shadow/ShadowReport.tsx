import {
  Banner,
  BlockStack,
  Button,
  InlineStack,
  Link,
  List,
  Select,
  Text,
} from '@shopify/polaris';
import type {
  GlobalRulesList,
  ShadowCartJson,
  ShadowReportReply,
  ShadowVerdict,
} from '@ratesmith/contracts/edge';
import { useCallback, useEffect, useState } from 'react';
import { messageOf, useApi } from '../api';
import { formatCents } from '../money/money';
import { useShopCurrency } from '../money/useShopCurrency';
import { cartPresetQuery } from '../preview/cart-link';
import { useToast } from '../toast';
import { GoLiveButton, LiveBanner, type ActionError, type Outcome } from './GoLive';

/** Starting reads the shop's Shopify rates first (as the import does). */
const START_TIMEOUT_MS = 30_000;

const VERDICTS: [ShadowVerdict, string][] = [
  ['same', 'Same price'],
  ['cheaper', 'Cheaper with Ratesmith'],
  ['dearer', 'Dearer with Ratesmith'],
  ['no_rate', 'No rate from Ratesmith'],
  ['only_ratesmith', 'A rate only from Ratesmith'],
];

/** The shadow ruleset's editor with the cart in its preview (its step table). */
const previewUrl = (rulesetId: string, cart: ShadowCartJson) =>
  `/edit-global-rule/${encodeURIComponent(rulesetId)}?${cartPresetQuery(cart)}`;

function range(r: ShadowReportReply['distribution'][number], currency: string | null) {
  const money = (cents: number) => formatCents(cents, currency);
  if (r.from === null) return `${money(r.to!)} or less`;
  if (r.to === null) return `${money(r.from)} or more`;
  return r.from === r.to ? money(r.from) : `${money(r.from)} to ${money(r.to)}`;
}

/**
 * Shadow mode (docs/shopify.md, "Shadow mode"): a ruleset runs beside the
 * shop's Shopify rates, checkout showing only those, and the report compares
 * what each cart would have cost with Ratesmith.
 */
export function ShadowReport() {
  const api = useApi();
  const toast = useToast();
  const [report, setReport] = useState<ShadowReportReply | null>(null);
  const [rulesets, setRulesets] = useState<GlobalRulesList['globalRules']>([]);
  const [chosen, setChosen] = useState('');
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  /** The last go-live or undo's failure, kept on the page (Ratesmith may be live already). */
  const [actionError, setActionError] = useState<ActionError | null>(null);
  const currency = useShopCurrency();

  const load = useCallback(async () => {
    try {
      const [got, list] = await Promise.all([
        api.get<ShadowReportReply>('/api/shadow'),
        api.get<GlobalRulesList>('/api/global-rules'),
      ]);
      setReport(got);
      setRulesets(list.globalRules);
      setChosen(
        (c) => c || list.globalRules.find((r) => !r.active)?.id || list.globalRules[0]?.id || '',
      );
      setFailed(null);
    } catch (err) {
      setFailed(messageOf(err, 'The shadow report could not be loaded. Please try again.'));
    }
  }, [api]);

  useEffect(() => void load(), [load]);

  const act = async (run: () => Promise<ShadowReportReply>, done: string) => {
    setBusy(true);
    try {
      setReport(await run());
      toast.success(done);
    } catch (err) {
      toast.error(messageOf(err, 'Something went wrong. Please try again.'));
    } finally {
      setBusy(false);
    }
  };

  /** A go-live or undo ended: its report, or the error on the page and the report read again. */
  const settled = (outcome: Outcome) => {
    if (outcome.report) setReport(outcome.report);
    if (outcome.done) toast.success(outcome.done);
    setActionError(outcome.error ?? null);
    if (outcome.error) void load();
  };

  if (failed)
    return (
      <Banner tone="critical" title="The shadow report could not be loaded">
        <p>{failed}</p>
      </Banner>
    );
  if (!report)
    return (
      <Text as="p" tone="subdued">
        Loading the shadow report…
      </Text>
    );

  const above = (
    <>
      {actionError && (
        <Banner tone="critical" title={actionError.title} onDismiss={() => setActionError(null)}>
          <p>{actionError.message}</p>
        </Banner>
      )}
      {report.go_live && (
        <LiveBanner record={report.go_live} retry={actionError?.goLive === true} onDone={settled} />
      )}
    </>
  );
  const { shadow } = report;
  if (!shadow)
    return (
      <BlockStack gap="400">
        {above}
        <Text as="p">
          While a ruleset runs in shadow, checkout shows only your Shopify rates, and Ratesmith
          notes what each cart would have cost with that ruleset.
        </Text>
        {rulesets.length === 0 ? (
          <Text as="p">Create or import a ruleset first.</Text>
        ) : (
          <InlineStack gap="200" blockAlign="end">
            <Select
              label="Ruleset to run in shadow"
              options={rulesets.map((r) => ({ label: r.name, value: r.id }))}
              value={chosen}
              onChange={setChosen}
            />
            <Button
              variant="primary"
              loading={busy}
              onClick={() =>
                void act(
                  () =>
                    api.post<ShadowReportReply>(
                      '/api/shadow',
                      { ruleset_id: chosen },
                      { timeoutMs: START_TIMEOUT_MS },
                    ),
                  'Shadow started: checkout shows only your Shopify rates.',
                )
              }
            >
              Start shadow
            </Button>
          </InlineStack>
        )}
      </BlockStack>
    );

  const priced = report.distribution.some((r) => r.count > 0);
  return (
    <BlockStack gap="400">
      {above}
      <Text as="h3" variant="headingMd">
        “{shadow.ruleset_name}” in shadow since {new Date(shadow.started_at).toLocaleString()}
      </Text>
      <Text as="p">
        Checkout shows only your Shopify rates. {report.seen} {report.seen === 1 ? 'cart' : 'carts'}{' '}
        seen.
      </Text>
      <List>
        {VERDICTS.map(([verdict, label]) => (
          <List.Item key={verdict}>
            {label}: {report.counts[verdict]}
          </List.Item>
        ))}
      </List>
      {priced && (
        <BlockStack gap="200">
          <Text as="h4" variant="headingSm">
            Ratesmith’s price minus your Shopify rate
          </Text>
          <List>
            {report.distribution
              .filter((r) => r.count > 0)
              .map((r, i) => (
                <List.Item key={i}>
                  {range(r, currency)}: {r.count} {r.count === 1 ? 'cart' : 'carts'}
                </List.Item>
              ))}
          </List>
        </BlockStack>
      )}
      {report.largest.length > 0 && (
        <BlockStack gap="200">
          <Text as="h4" variant="headingSm">
            The largest differences
          </Text>
          <List type="number">
            {report.largest.map((cart, i) => (
              <List.Item key={i}>
                {cart.country || 'No country'}: Ratesmith{' '}
                {formatCents(cart.ratesmith!.cents, cart.currency)} ({cart.ratesmith!.name}),
                Shopify {formatCents(cart.native!.cents, cart.currency)} ({cart.native!.name}).{' '}
                <Link url={previewUrl(shadow.ruleset_id, cart)}>Open in preview</Link>
              </List.Item>
            ))}
          </List>
        </BlockStack>
      )}
      <InlineStack gap="200">
        <GoLiveButton rulesetName={shadow.ruleset_name} disabled={busy} onDone={settled} />
        <Button onClick={() => void load()} disabled={busy}>
          Refresh
        </Button>
        <Button
          tone="critical"
          loading={busy}
          onClick={() =>
            void act(() => api.delete<ShadowReportReply>('/api/shadow'), 'Shadow stopped.')
          }
        >
          Stop shadow
        </Button>
      </InlineStack>
    </BlockStack>
  );
}
