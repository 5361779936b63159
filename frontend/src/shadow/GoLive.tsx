import { Banner, BlockStack, Button, Checkbox, List, Modal, Text } from '@shopify/polaris';
import type {
  GoLivePlanReply,
  GoLiveRecordJson,
  NativeRateOff,
  ShadowReportReply,
} from '@ratesmith/contracts/edge';
import { useState } from 'react';
import { ApiError, messageOf, useApi } from '../api';
import { ConfirmModal } from '../components/ConfirmModal';

/** Going live and its undo read and change the shop's Shopify rates (several calls to Shopify). */
export const SHOPIFY_TIMEOUT_MS = 45_000;

const rates = (n: number) => `${n} Shopify ${n === 1 ? 'rate' : 'rates'}`;

/** The rates as the confirmations list them: zone, name, price and conditions. */
function RateList({ list }: { list: NativeRateOff[] }) {
  return (
    <List>
      {list.map((r) => (
        <List.Item key={r.id}>
          {r.zone}: {r.name} ({r.price})
        </List.Item>
      ))}
    </List>
  );
}

/** A go-live or undo that failed: kept on the page (Ratesmith may be live already). */
export interface ActionError {
  title: string;
  message: string;
  /** Going live failed: Disable Shopify's rates again is offered. */
  goLive: boolean;
}

export interface Outcome {
  /** The report as it is now. */
  report?: ShadowReportReply;
  /** The success to tell the merchant. */
  done?: string;
  error?: ActionError;
}

const GO_LIVE_FAILED = 'Going live did not finish';

/**
 * Go live from the shadow report (docs/shopify.md, "Shadow mode"): a first
 * confirmation, with "Also disable Shopify's own rates in these zones";
 * when ticked, a second one lists exactly the rates that go off (read from
 * Shopify now) and its button says how many. The list confirmed is sent back:
 * the gateway refuses it when Shopify's rates changed in between.
 */
export function GoLiveButton({
  rulesetName,
  disabled,
  onDone,
}: {
  rulesetName: string;
  disabled: boolean;
  onDone: (outcome: Outcome) => void;
}) {
  const api = useApi();
  const [step, setStep] = useState<'closed' | 'confirm' | 'rates'>('closed');
  const [turnOff, setTurnOff] = useState(false);
  const [plan, setPlan] = useState<NativeRateOff[] | null>(null);
  /** Why the plan is empty, when the gateway says (checkout does not call Ratesmith). */
  const [planNote, setPlanNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const close = () => {
    setStep('closed');
    setError(null);
  };

  const loadPlan = async () => {
    setBusy(true);
    setError(null);
    try {
      const got = await api.get<GoLivePlanReply>('/api/shadow/go-live', {
        timeoutMs: SHOPIFY_TIMEOUT_MS,
      });
      setPlan(got.rates);
      setPlanNote(got.message);
      setStep('rates');
    } catch (err) {
      setError(messageOf(err, 'Your Shopify rates could not be read. Please try again.'));
    } finally {
      setBusy(false);
    }
  };

  const goLive = async (off: NativeRateOff[]) => {
    setBusy(true);
    setError(null);
    try {
      const report = await api.post<ShadowReportReply>(
        '/api/shadow/go-live',
        { turn_off_native: off.map((r) => r.id) },
        { timeoutMs: SHOPIFY_TIMEOUT_MS },
      );
      close();
      onDone({ report, done: report.message });
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) {
        // Shopify's rates changed since the list was read: show the new list to review.
        setError(messageOf(err, 'Your Shopify rates changed: review the list again.'));
        try {
          const again = await api.get<GoLivePlanReply>('/api/shadow/go-live', {
            timeoutMs: SHOPIFY_TIMEOUT_MS,
          });
          setPlan(again.rates);
          setPlanNote(again.message);
        } catch {
          setPlan(null);
          setStep('confirm');
        }
      } else {
        // Ratesmith may be live with Shopify's rates still on: the page says so, with Undo.
        close();
        onDone({
          error: {
            title: GO_LIVE_FAILED,
            message: messageOf(err, 'Going live failed. Please try again.'),
            goLive: true,
          },
        });
      }
    } finally {
      setBusy(false);
    }
  };

  const count = plan?.length ?? 0;
  return (
    <>
      <Button
        variant="primary"
        disabled={disabled}
        onClick={() => {
          setTurnOff(false);
          setPlan(null);
          setStep('confirm');
        }}
      >
        Go live
      </Button>
      <ConfirmModal
        open={step === 'confirm'}
        onClose={close}
        title={`Go live with “${rulesetName}”?`}
        action={turnOff ? 'Review Shopify rates' : 'Go live'}
        busy={busy}
        onConfirm={() => (turnOff ? loadPlan() : goLive([]))}
      >
        <BlockStack gap="300">
          {error && (
            <Banner tone="critical">
              <p>{error}</p>
            </Banner>
          )}
          <Text as="p">
            Checkout gets Ratesmith’s rates from “{rulesetName}” instead of none, and the shadow
            stops. Undo brings the shadow back with its report.
          </Text>
          <Checkbox
            label="Also disable Shopify’s own rates in these zones"
            helpText="In the zones where Ratesmith takes part, checkout then shows only Ratesmith’s rates. You review the exact list first; Undo turns them back on."
            checked={turnOff}
            onChange={setTurnOff}
          />
        </BlockStack>
      </ConfirmModal>
      <Modal
        open={step === 'rates'}
        onClose={close}
        title="Disable these Shopify rates?"
        primaryAction={{
          content: count ? `Go live and disable ${rates(count)}` : 'Go live',
          destructive: count > 0,
          loading: busy,
          onAction: () => void goLive(plan ?? []),
        }}
        secondaryActions={[{ content: 'Cancel', onAction: close }]}
      >
        <Modal.Section>
          <BlockStack gap="300">
            {error && (
              <Banner tone="critical">
                <p>{error}</p>
              </Banner>
            )}
            {count ? (
              <>
                <Text as="p">
                  Going live disables these {rates(count)} in Shopify, so checkout shows only
                  Ratesmith’s rates in their zones:
                </Text>
                <RateList list={plan ?? []} />
              </>
            ) : (
              <Text as="p">
                {planNote ||
                  'No Shopify rate is enabled in the zones where Ratesmith takes part: nothing is disabled.'}
              </Text>
            )}
          </BlockStack>
        </Modal.Section>
      </Modal>
    </>
  );
}

/**
 * After going live: Ratesmith is live, with Undo (its confirmation lists the
 * Shopify rates that come back). The report carries the record, so this
 * shows after a reload too.
 */
export function LiveBanner({
  record,
  retry,
  onDone,
}: {
  record: GoLiveRecordJson;
  /** The last go-live failed to turn the rates off: offer to try again. */
  retry: boolean;
  onDone: (outcome: Outcome) => void;
}) {
  const api = useApi();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState<'undo' | 'retry' | null>(null);

  const run = async (what: 'undo' | 'retry') => {
    setBusy(what);
    try {
      const report =
        what === 'undo'
          ? await api.post<ShadowReportReply>(
              '/api/shadow/undo-go-live',
              {},
              {
                timeoutMs: SHOPIFY_TIMEOUT_MS,
              },
            )
          : await api.post<ShadowReportReply>(
              '/api/shadow/go-live',
              { turn_off_native: record.turned_off.map((r) => r.id) },
              { timeoutMs: SHOPIFY_TIMEOUT_MS },
            );
      setConfirming(false);
      onDone({ report, done: report.message });
    } catch (err) {
      setConfirming(false);
      onDone({
        error:
          what === 'undo'
            ? {
                title: 'Undo did not finish',
                message: messageOf(err, 'Undo failed. Please try again.'),
                goLive: false,
              }
            : {
                title: GO_LIVE_FAILED,
                message: messageOf(err, 'Shopify’s rates could not be disabled. Please try again.'),
                goLive: true,
              },
      });
    } finally {
      setBusy(null);
    }
  };

  const off = record.turned_off;
  return (
    <>
      <Banner tone="success" title={`“${record.ruleset_name}” is live`}>
        <BlockStack gap="200">
          <Text as="p">
            Since {new Date(record.at).toLocaleString()}, checkout gets Ratesmith’s rates.{' '}
            {off.length
              ? `Going live disabled ${rates(off.length)}.`
              : 'Your Shopify rates stayed enabled.'}
          </Text>
          <Text as="p">Starting a new shadow ends the chance to undo this.</Text>
          <div>
            <Button onClick={() => setConfirming(true)} disabled={busy !== null}>
              Undo going live
            </Button>{' '}
            {retry && off.length > 0 && (
              <Button loading={busy === 'retry'} onClick={() => void run('retry')}>
                Disable Shopify’s rates again
              </Button>
            )}
          </div>
        </BlockStack>
      </Banner>
      <ConfirmModal
        open={confirming}
        onClose={() => setConfirming(false)}
        title="Undo going live?"
        action="Undo"
        busy={busy === 'undo'}
        onConfirm={() => run('undo')}
      >
        <BlockStack gap="300">
          <Text as="p">
            “{record.ruleset_name}” runs in shadow again with its report, and the ruleset enabled
            before going live is enabled again.
          </Text>
          {off.length ? (
            <>
              <Text as="p">These {rates(off.length)} are enabled again:</Text>
              <RateList list={off} />
            </>
          ) : (
            <Text as="p">No Shopify rate was disabled, so none changes.</Text>
          )}
        </BlockStack>
      </ConfirmModal>
    </>
  );
}
