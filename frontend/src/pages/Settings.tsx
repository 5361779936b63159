import {
  Banner,
  BlockStack,
  Button,
  Card,
  Checkbox,
  Form,
  FormLayout,
  Layout,
  List,
  Page,
  Select,
  Text,
  TextField,
} from '@shopify/polaris';
import {
  RECENT_CHECKOUT_BOUNDS,
  settingsFormProblems,
  type SettingsField,
  type SettingsFormValues,
} from '@ratesmith/contracts/edge';
import { startTransition, useEffect, useMemo, useState, type ReactNode } from 'react';
import { ApiError, messageOf, useApi, type SettingsReply, type ShopSettings } from '../api';
import { CarrierServiceCard } from '../components/CarrierServiceStatus';
import { ErrorState, LoadingState } from '../components/ListState';
import { SaveBar } from '../components/SaveBar';
import { useGet } from '../components/useLoader';
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

/** An amount as typed: blank is null (bump shipping's cost, which may not be blank while it is on). */
const typedAmount = (typed: string): number | null => (typed.trim() === '' ? null : Number(typed));

/** The form's fields the checks of settings-fields.ts (in the contracts) read. */
function formValues(draft: Draft): SettingsFormValues {
  return {
    carrier_name: draft.carrier_name,
    carrier_description: draft.carrier_description,
    bump_shipping_enabled: draft.bump_shipping_enabled,
    bump_shipping_name: draft.bump_shipping_name,
    bump_shipping_description: draft.bump_shipping_description,
    bump_shipping_action: draft.bump_shipping_action,
    bump_shipping_cost: typedAmount(draft.bump_shipping_cost),
    fallback_enabled: draft.fallback_enabled,
    fallback_name: draft.fallback_name,
    fallback_description: draft.fallback_description,
    fallback_cost: amountOf(draft.fallback_cost),
    recent_checkouts_enabled: draft.recent_checkouts_enabled,
    recent_checkouts_per_minute: wholeOf(draft.recent_checkouts_per_minute),
    recent_checkouts_days: wholeOf(draft.recent_checkouts_days),
  };
}

/** Each field's label, as its input shows it (the error list names the field). */
const FIELD_LABELS: Partial<Record<SettingsField, string>> = {
  carrier_name: 'Carrier name',
  carrier_description: 'Carrier description',
  bump_shipping_name: 'Bump shipping name',
  bump_shipping_description: 'Bump shipping description',
  bump_shipping_action: 'Bump shipping action',
  bump_shipping_cost: 'Bump shipping cost',
  fallback_name: 'Fallback rate name',
  fallback_description: 'Fallback rate description',
  fallback_cost: 'Fallback rate amount',
  recent_checkouts_per_minute: 'Checkouts sampled a minute',
  recent_checkouts_days: 'Days kept',
};

/** The id of a field's input (the error list leads to it; a refused save focuses the first). */
const inputId = (field: string) => `settings-${field}`;

/** The settings typed as text (the form keeps numbers as typed). */
type TypedKey = {
  [K in SettingsField & keyof Draft]: Draft[K] extends string ? K : never;
}[SettingsField & keyof Draft];

/** A field's wiring to the draft (SettingsForm's `field`). */
interface FieldWiring {
  id: string;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
}

/**
 * What stands between the form and a save: a message at each refused field,
 * with the value it was refused for (a message the page cannot check itself,
 * the server's, goes when that value changes), and the server's problems of
 * no one field (the delivery calendar's).
 */
interface Refusal {
  fields: Partial<Record<SettingsField, { message: string; value: string }>>;
  other: string[];
}
const NO_REFUSAL: Refusal = { fields: {}, other: [] };

/** A field's value as the form holds it, to tell when a refused value was changed. */
const valueOf = (draft: Draft, field: SettingsField) => JSON.stringify(draft[field as keyof Draft]);

/**
 * A message stays at its field until the field is fixed: while the page's
 * own check still refuses it (with that check's words), or, for the server's,
 * until its value changes.
 */
function stillRefused(refusal: Refusal, draft: Draft): Refusal {
  const problems = settingsFormProblems(formValues(draft));
  const fields: Refusal['fields'] = {};
  for (const [key, refused] of Object.entries(refusal.fields)) {
    const field = key as SettingsField;
    const message = problems[field];
    if (message) fields[field] = { message, value: valueOf(draft, field) };
    else if (refused && refused.value === valueOf(draft, field)) fields[field] = refused;
  }
  return { fields, other: refusal.other };
}

function refusalOf(draft: Draft, byField: Record<string, string>, other: string[]): Refusal {
  const fields: Refusal['fields'] = {};
  for (const [key, message] of Object.entries(byField)) {
    const field = key as SettingsField;
    if (field in draft) fields[field] = { message, value: valueOf(draft, field) };
    else other.push(message);
  }
  return { fields, other };
}

export default function Settings() {
  // Delivery dates count in the store's own time zone, read from Shopify, never typed.
  const shopTimezone = useShopTimezone();
  const api = useApi();
  const toast = useToast();
  const loaded = useGet<SettingsReply>('/api/settings');
  // The form's amounts show the shop's currency: asked beside the settings, not after them.
  usePreloadShopFormats();
  const [draft, setDraft] = useState<Draft | undefined>(undefined);
  // The settings as saved (loaded or answered by the last save): Discard goes back to them.
  const [saved, setSaved] = useState<Draft | undefined>(undefined);
  const [saving, setSaving] = useState(false);
  const [refusal, setRefusal] = useState<Refusal>(NO_REFUSAL);

  useEffect(() => {
    // The form is the page's largest render (about 50 ms on a slow phone): as a
    // transition React renders it in slices, so a tap meanwhile is not kept waiting.
    const settings = loaded.data?.settings;
    if (settings)
      startTransition(() => {
        setDraft(toDraft(settings));
        setSaved(toDraft(settings));
      });
  }, [loaded.data]);
  useEffect(() => {
    // The original only logged this failure; the merchant gets told.
    if (loaded.error) toast.error(messageOf(loaded.error, 'Data Fetch Failed'));
  }, [loaded.error, toast]);

  const dirty = useMemo(
    () => Boolean(draft && saved) && JSON.stringify(draft) !== JSON.stringify(saved),
    [draft, saved],
  );

  const edit = (next: Draft) => {
    setDraft(next);
    setRefusal((was) => (was === NO_REFUSAL ? was : stillRefused(was, next)));
  };

  /** Shows a refusal and takes the merchant to its first field. */
  const refuse = (next: Refusal) => {
    setRefusal(next);
    const first = Object.keys(FIELD_LABELS).find((field) => field in next.fields);
    // After the render that marks it: the field is focused with its message read out.
    if (first) setTimeout(() => document.getElementById(inputId(first))?.focus(), 0);
  };

  const save = async () => {
    if (!draft || saving) return;
    // The page's own check first: every problem it can see, at its field, before any request.
    const problems = settingsFormProblems(formValues(draft));
    if (Object.keys(problems).length) {
      refuse(refusalOf(draft, problems as Record<string, string>, []));
      return;
    }
    setSaving(true);
    try {
      const reply = await api.post<SettingsReply>('/api/settings', {
        ...draft,
        ...deliveryJsonOf(shopTimezone ? { ...draft, timezone: shopTimezone } : draft),
        // Blank is "not typed", which bump shipping that is on may not be (the gateway says so).
        bump_shipping_cost: typedAmount(draft.bump_shipping_cost),
        fallback_cost: amountOf(draft.fallback_cost),
        // Blank keeps the default; the rules service says what else is allowed.
        recent_checkouts_per_minute: wholeOf(draft.recent_checkouts_per_minute),
        recent_checkouts_days: wholeOf(draft.recent_checkouts_days),
      });
      setDraft(toDraft(reply.settings));
      setSaved(toDraft(reply.settings));
      setRefusal(NO_REFUSAL);
      toast.success(reply.message);
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) {
        // Each problem at its field (the 400's `fields`), the others in the list above the form.
        // The gateway's own refusals list a field's message as "field: message".
        const atFields = new Set(
          Object.entries(err.fields).flatMap(([field, message]) => [
            message,
            `${field}: ${message}`,
          ]),
        );
        const other = err.errors.filter((e) => !atFields.has(e));
        if (!other.length && !atFields.size) other.push(messageOf(err, 'Failed to save settings'));
        refuse(refusalOf(draft, err.fields, other));
      } else {
        // Not the form's fault (the server or the network): said until the next save.
        setRefusal({ fields: {}, other: [messageOf(err, 'Failed to save settings')] });
      }
    } finally {
      setSaving(false);
    }
  };

  const errors = useMemo(() => {
    const byField: Partial<Record<SettingsField, string>> = {};
    for (const [field, refused] of Object.entries(refusal.fields))
      if (refused) byField[field as SettingsField] = refused.message;
    return byField;
  }, [refusal]);

  return (
    <Page title="Settings">
      {draft && saved && (
        <SaveBar
          dirty={dirty}
          saving={saving}
          onSave={() => void save()}
          onDiscard={() => {
            setDraft(saved);
            setRefusal(NO_REFUSAL);
          }}
          subject="these settings"
        />
      )}
      {loaded.error && !draft ? (
        <ErrorState loaded={loaded} />
      ) : !draft ? (
        <LoadingState label="Loading settings" />
      ) : (
        <BlockStack gap="400">
          <RefusalList errors={errors} other={refusal.other} />
          <SettingsForm
            draft={draft}
            onChange={edit}
            onSubmit={() => void save()}
            errors={errors}
          />
        </BlockStack>
      )}
    </Page>
  );
}

/**
 * The refused save in one place above the form, announced (an alert): each
 * field's message leads to its field, where it is said again (Polaris' field
 * error: aria-invalid and described by it). Kept until each is fixed.
 */
function RefusalList({
  errors,
  other,
}: {
  errors: Partial<Record<SettingsField, string>>;
  other: string[];
}) {
  const fields = Object.keys(FIELD_LABELS).filter(
    (field) => errors[field as SettingsField],
  ) as SettingsField[];
  const count = fields.length + other.length;
  if (!count) return null;
  return (
    <Banner
      tone="critical"
      title={
        fields.length
          ? `${count === 1 ? 'One setting needs' : `${count} settings need`} fixing before they can be saved:`
          : 'The settings were not saved:'
      }
    >
      <List type="bullet">
        {fields.map((field) => (
          <List.Item key={field}>
            <Button
              variant="plain"
              onClick={() => document.getElementById(inputId(field))?.focus()}
            >
              {FIELD_LABELS[field]}
            </Button>
            : {errors[field]}
          </List.Item>
        ))}
        {other.map((message) => (
          <List.Item key={message}>{message}</List.Item>
        ))}
      </List>
    </Banner>
  );
}

function SettingsForm({
  draft,
  onChange,
  onSubmit,
  errors,
}: {
  draft: Draft;
  onChange: (draft: Draft) => void;
  onSubmit: () => void;
  /** The refused fields' messages. */
  errors: Partial<Record<SettingsField, string>>;
}) {
  const shopCurrency = useShopCurrency();
  const shopTimezone = useShopTimezone();
  // The store's time zone shown and counted in; the save sends it (see Settings).
  const dated = shopTimezone ? { ...draft, timezone: shopTimezone } : draft;
  const set =
    <K extends keyof Draft>(key: K) =>
    (value: Draft[K]) =>
      onChange({ ...draft, [key]: value });
  /** A typed field's wiring to the draft: its id (the error list's links), value, change and error. */
  const field = (key: TypedKey): FieldWiring => ({
    id: inputId(key),
    value: draft[key],
    onChange: set(key),
    error: errors[key],
  });
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
              fields={[field('carrier_name'), field('carrier_description')]}
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
            fields={[field('bump_shipping_name'), field('bump_shipping_description')]}
            disabled={bumpOff}
          />
          <FormLayout.Group>
            <Select
              id={inputId('bump_shipping_action')}
              label="Bump shipping action"
              options={ACTIONS}
              error={errors.bump_shipping_action}
              value={action === null ? '' : String(action)}
              onChange={(value) =>
                set('bump_shipping_action')(value === '' ? null : (Number(value) as 1 | 2))
              }
              disabled={bumpOff}
            />
            <TextField
              {...field('bump_shipping_cost')}
              label="Bump shipping cost"
              type="number"
              min={0}
              step={0.01}
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
          description="The rate checkout shows when none of your rules matched a cart. Without it, such a cart gets no Ratesmith rate, and Shopify keeps that answer for about 15 minutes."
          toggleLabel="Offer a fallback rate"
          on={draft.fallback_enabled}
          onToggle={set('fallback_enabled')}
        >
          <RateTexts
            noun="Fallback rate"
            fields={[field('fallback_name'), field('fallback_description')]}
            disabled={fallbackOff}
          />
          <TextField
            {...field('fallback_cost')}
            label="Fallback rate amount"
            type="number"
            min={0}
            step={0.01}
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
              {...field('recent_checkouts_per_minute')}
              label="Checkouts sampled a minute"
              bounds={RECENT_CHECKOUT_BOUNDS.perMinute}
              disabled={!draft.recent_checkouts_enabled}
            />
            <BoundedCount
              {...field('recent_checkouts_days')}
              label="Days kept"
              bounds={RECENT_CHECKOUT_BOUNDS.days}
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
  fields: [name, description],
  disabled,
}: {
  noun: string;
  /** The rate's name and description. */
  fields: [FieldWiring, FieldWiring];
  disabled: boolean;
}) {
  // Its own FormLayout: a fragment would be one FormLayout item, without the gap between fields.
  return (
    <FormLayout>
      <TextField
        {...name}
        label={`${noun} name`}
        maxLength={SETTINGS_TEXT_MAX}
        showCharacterCount
        disabled={disabled}
        autoComplete="off"
      />
      <TextField
        {...description}
        label={`${noun} description`}
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
  disabled,
  ...wiring
}: FieldWiring & {
  label: string;
  bounds: { min: number; max: number };
  disabled: boolean;
}) {
  return (
    <TextField
      {...wiring}
      label={label}
      type="number"
      min={bounds.min}
      max={bounds.max}
      step={1}
      helpText={`${bounds.min} to ${bounds.max}`}
      disabled={disabled}
      autoComplete="off"
    />
  );
}
