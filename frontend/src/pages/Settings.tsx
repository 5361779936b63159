import {
  BlockStack,
  Card,
  Checkbox,
  Form,
  FormLayout,
  Layout,
  Page,
  Select,
  Text,
  TextField,
} from '@shopify/polaris';
import { RECENT_CHECKOUT_BOUNDS } from '@ratesmith/contracts/edge';
import { startTransition, useCallback, useEffect, useState, type ReactNode } from 'react';
import { messageOf, useApi, type SettingsReply, type ShopSettings } from '../api';
import { CarrierServiceCard } from '../components/CarrierServiceStatus';
import { ErrorState, LoadingState } from '../components/ListState';
import { useLoader } from '../components/useLoader';
import { currencySymbol } from '../money/money';
import { usePreloadShopFormats, useShopCurrency, useShopTimezone } from '../money/useShopCurrency';
import { useToast } from '../toast';
import {
  DeliveryDatesSection,
  deliveryDraftOf,
  deliveryJsonOf,
  ServicesSection,
  type DeliveryDraft,
} from './settings-delivery';

/** The settings texts (the original app's, word for word). */
export const SETTINGS_TEXT_MAX = 160;

const ACTIONS = [
  { label: 'Choose an action', value: '' },
  { label: 'Add a percent on top of regular shipping', value: '1' },
  { label: 'Add a static fee on top of regular shipping', value: '2' },
];

/** The form keeps the amounts as typed; they become numbers on save. */
type Draft = Omit<
  ShopSettings,
  | 'bump_shipping_cost'
  | 'fallback_cost'
  | 'recent_checkouts_per_minute'
  | 'recent_checkouts_days'
  | keyof DeliveryDraft
> &
  DeliveryDraft & {
    bump_shipping_cost: string;
    fallback_cost: string;
    recent_checkouts_per_minute: string;
    recent_checkouts_days: string;
  };

function toDraft(settings: ShopSettings): Draft {
  return {
    ...settings,
    ...deliveryDraftOf(settings),
    bump_shipping_cost: String(settings.bump_shipping_cost ?? 0),
    fallback_cost: String(settings.fallback_cost ?? 0),
    recent_checkouts_per_minute: String(settings.recent_checkouts_per_minute),
    recent_checkouts_days: String(settings.recent_checkouts_days),
  };
}

/** A count as typed: blank is null (the default). */
const wholeOf = (typed: string): number | null => (typed.trim() === '' ? null : Number(typed));

/** An amount as typed: blank is 0. */
const amountOf = (typed: string): number => (typed.trim() === '' ? 0 : Number(typed));

export default function Settings() {
  // Delivery dates count in the store's own time zone, read from Shopify, never typed.
  const shopTimezone = useShopTimezone();
  const api = useApi();
  const toast = useToast();
  const loaded = useLoader(
    useCallback(
      (signal: AbortSignal) => api.get<SettingsReply>('/api/settings', { signal }),
      [api],
    ),
  );
  // The form's amounts show the shop's currency: asked beside the settings, not after them.
  usePreloadShopFormats();
  const [draft, setDraft] = useState<Draft | undefined>(undefined);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    // The form is the page's largest render (about 50 ms on a slow phone): as a
    // transition React renders it in slices, so a tap meanwhile is not kept waiting.
    const settings = loaded.data?.settings;
    if (settings) startTransition(() => setDraft(toDraft(settings)));
  }, [loaded.data]);
  useEffect(() => {
    // The original only logged this failure; the merchant gets told.
    if (loaded.error) toast.error(messageOf(loaded.error, 'Data Fetch Failed'));
  }, [loaded.error, toast]);

  const save = async () => {
    if (!draft) return;
    setSaving(true);
    try {
      const reply = await api.post<SettingsReply>('/api/settings', {
        ...draft,
        ...deliveryJsonOf(shopTimezone ? { ...draft, timezone: shopTimezone } : draft),
        bump_shipping_cost: amountOf(draft.bump_shipping_cost),
        fallback_cost: amountOf(draft.fallback_cost),
        // Blank keeps the default; the rules service says what else is allowed.
        recent_checkouts_per_minute: wholeOf(draft.recent_checkouts_per_minute),
        recent_checkouts_days: wholeOf(draft.recent_checkouts_days),
      });
      setDraft(toDraft(reply.settings));
      toast.success(reply.message);
    } catch (err) {
      toast.error(messageOf(err, 'Failed to save settings'));
    } finally {
      setSaving(false);
    }
  };

  const saveAction = {
    content: 'Save',
    onAction: () => void save(),
    loading: saving,
    disabled: !draft,
  };

  return (
    <Page title="Settings" primaryAction={saveAction}>
      {loaded.error && !draft ? (
        <ErrorState
          error={loaded.error}
          onRetry={() => void loaded.reload()}
          loading={loaded.loading}
        />
      ) : !draft ? (
        <LoadingState label="Loading settings" />
      ) : (
        <SettingsForm draft={draft} onChange={setDraft} onSubmit={() => void save()} />
      )}
    </Page>
  );
}

function SettingsForm({
  draft,
  onChange,
  onSubmit,
}: {
  draft: Draft;
  onChange: (draft: Draft) => void;
  onSubmit: () => void;
}) {
  const shopCurrency = useShopCurrency();
  const shopTimezone = useShopTimezone();
  // The store's time zone shown and counted in; the save sends it (see Settings).
  const dated = shopTimezone ? { ...draft, timezone: shopTimezone } : draft;
  const set =
    <K extends keyof Draft>(key: K) =>
    (value: Draft[K]) =>
      onChange({ ...draft, [key]: value });
  const bumpOff = !draft.bump_shipping_enabled;
  const action = draft.bump_shipping_action;
  const fallbackOff = !draft.fallback_enabled;
  // "Ordered now" in the delivery examples: read at each render (Date.now, so tests can set it).
  const now = new Date(Date.now());
  return (
    <Form onSubmit={onSubmit}>
      <Layout>
        <Layout.AnnotatedSection
          title="Checkout"
          description="Whether Shopify asks Ratesmith for rates at checkout. Ratesmith checks this daily and when you open the app."
        >
          <CarrierServiceCard />
        </Layout.AnnotatedSection>
        <Layout.AnnotatedSection
          title="Carrier"
          description="The name and description checkout shows with the regular Ratesmith rate, unless a rule overrides them."
        >
          <Card>
            <RateTexts
              noun="Carrier"
              name={draft.carrier_name}
              description={draft.carrier_description}
              onName={set('carrier_name')}
              onDescription={set('carrier_description')}
              disabled={false}
            />
          </Card>
        </Layout.AnnotatedSection>
        <OptionalSection
          title="Bump shipping"
          description="A second, faster option at checkout priced from the regular rate: a percent or a fixed fee on top."
          toggleLabel="Offer bump shipping"
          on={draft.bump_shipping_enabled}
          onToggle={set('bump_shipping_enabled')}
        >
          <RateTexts
            noun="Bump shipping"
            name={draft.bump_shipping_name}
            description={draft.bump_shipping_description}
            onName={set('bump_shipping_name')}
            onDescription={set('bump_shipping_description')}
            disabled={bumpOff}
          />
          <FormLayout.Group>
            <Select
              label="Bump shipping action"
              options={ACTIONS}
              value={action === null ? '' : String(action)}
              onChange={(value) =>
                set('bump_shipping_action')(value === '' ? null : (Number(value) as 1 | 2))
              }
              disabled={bumpOff}
            />
            <TextField
              label="Bump shipping cost"
              type="number"
              min={0}
              step={0.01}
              value={draft.bump_shipping_cost}
              onChange={set('bump_shipping_cost')}
              prefix={action === 2 ? currencySymbol(shopCurrency) : undefined}
              suffix={action === 1 ? '%' : undefined}
              disabled={bumpOff}
              autoComplete="off"
            />
          </FormLayout.Group>
          <Text as="p" tone="subdued" variant="bodySm">
            {action === 1
              ? 'The bump rate is the regular rate plus this percent of it.'
              : action === 2
                ? 'The bump rate is the regular rate plus this fee.'
                : 'Choose how the bump rate is priced.'}
          </Text>
        </OptionalSection>
        <DeliveryDatesSection
          draft={dated}
          onChange={(delivery) => onChange({ ...draft, ...delivery })}
          bumpOn={draft.bump_shipping_enabled}
          now={now}
        />
        <ServicesSection
          draft={dated}
          onChange={(delivery) => onChange({ ...draft, ...delivery })}
          currencySymbol={currencySymbol(shopCurrency)}
          now={now}
        />
        <OptionalSection
          title="Fallback rate"
          description="The rate checkout shows when none of your rules matched a cart. Off, such a cart gets no Ratesmith rate, and Shopify keeps that answer for about 15 minutes."
          toggleLabel="Offer a fallback rate"
          on={draft.fallback_enabled}
          onToggle={set('fallback_enabled')}
        >
          <RateTexts
            noun="Fallback rate"
            name={draft.fallback_name}
            description={draft.fallback_description}
            onName={set('fallback_name')}
            onDescription={set('fallback_description')}
            disabled={fallbackOff}
          />
          <TextField
            label="Fallback rate amount"
            type="number"
            min={0}
            step={0.01}
            value={draft.fallback_cost}
            onChange={set('fallback_cost')}
            prefix={currencySymbol(shopCurrency)}
            disabled={fallbackOff}
            autoComplete="off"
          />
          <Text as="p" tone="subdued" variant="bodySm">
            The Dashboard counts the checkouts that got this rate, or no rate, so you can see which
            carts your rules miss.
          </Text>
        </OptionalSection>
        <OptionalSection
          title="Recent checkouts"
          description="A sample of the checkouts Ratesmith answered, with what each rule did. Figures only: never the customer's name, address, email or phone."
          toggleLabel="Keep recent checkouts"
          on={draft.recent_checkouts_enabled}
          onToggle={set('recent_checkouts_enabled')}
        >
          <FormLayout.Group>
            <BoundedCount
              label="Checkouts sampled a minute"
              bounds={RECENT_CHECKOUT_BOUNDS.perMinute}
              value={draft.recent_checkouts_per_minute}
              onChange={set('recent_checkouts_per_minute')}
              disabled={!draft.recent_checkouts_enabled}
            />
            <BoundedCount
              label="Days kept"
              bounds={RECENT_CHECKOUT_BOUNDS.days}
              value={draft.recent_checkouts_days}
              onChange={set('recent_checkouts_days')}
              disabled={!draft.recent_checkouts_enabled}
            />
          </FormLayout.Group>
        </OptionalSection>
      </Layout>
    </Form>
  );
}

/** A settings section that a checkbox turns on; its fields are disabled while it is off. */
function OptionalSection({
  title,
  description,
  toggleLabel,
  on,
  onToggle,
  children,
}: {
  title: string;
  description: string;
  toggleLabel: string;
  on: boolean;
  onToggle: (on: boolean) => void;
  children: ReactNode;
}) {
  return (
    <Layout.AnnotatedSection title={title} description={description}>
      <Card>
        <BlockStack gap="400">
          <Checkbox label={toggleLabel} checked={on} onChange={onToggle} />
          <FormLayout>{children}</FormLayout>
        </BlockStack>
      </Card>
    </Layout.AnnotatedSection>
  );
}

/** The name and description checkout shows with a rate (the carrier's, bump, fallback). */
function RateTexts({
  noun,
  name,
  description,
  onName,
  onDescription,
  disabled,
}: {
  noun: string;
  name: string;
  description: string;
  onName: (value: string) => void;
  onDescription: (value: string) => void;
  disabled: boolean;
}) {
  // Its own FormLayout: a fragment would be one FormLayout item, without the gap between fields.
  return (
    <FormLayout>
      <TextField
        label={`${noun} name`}
        value={name}
        onChange={onName}
        maxLength={SETTINGS_TEXT_MAX}
        showCharacterCount
        disabled={disabled}
        autoComplete="off"
      />
      <TextField
        label={`${noun} description`}
        value={description}
        onChange={onDescription}
        maxLength={SETTINGS_TEXT_MAX}
        showCharacterCount
        multiline={2}
        disabled={disabled}
        autoComplete="off"
      />
    </FormLayout>
  );
}

/** A whole number typed within bounds the rules service enforces; the bounds are shown. */
function BoundedCount({
  label,
  bounds,
  value,
  onChange,
  disabled,
}: {
  label: string;
  bounds: { min: number; max: number };
  value: string;
  onChange: (value: string) => void;
  disabled: boolean;
}) {
  return (
    <TextField
      label={label}
      type="number"
      min={bounds.min}
      max={bounds.max}
      step={1}
      value={value}
      onChange={onChange}
      helpText={`${bounds.min} to ${bounds.max}`}
      disabled={disabled}
      autoComplete="off"
    />
  );
}
