import {
  BlockStack,
  Button,
  Card,
  Checkbox,
  FormLayout,
  InlineError,
  InlineStack,
  Layout,
  Select,
  Tag,
  Text,
  TextField,
} from '@shopify/polaris';
import {
  BUMP_WINDOW_LABEL,
  calendarProblems,
  DEFAULT_CALENDAR,
  deliveryDates,
  MAX_PROCESSING_DAYS,
  REGULAR_WINDOW_LABEL,
  UPGRADE_LIMITS,
  upgradeLabel,
  upgradeProblems,
  windowProblems,
  type ShopCalendar,
} from '@ratesmith/contracts/delivery';
import { useId, useState } from 'react';
import type { ShopSettings } from '../api';
import { WindowDayFields, type WindowDayFieldsProps } from '../components/WindowDayFields';
import { arrivalText } from '../delivery-dates';

/**
 * The Settings page's "Delivery dates" and "Services" sections (docs/rates.md,
 * "Delivery dates" and "Upgrades"): the shop's calendar, the regular and bump
 * windows, and up to three more services. The numbers are kept as typed; the
 * messages come from the checks the rules service runs on save.
 */

type UpgradeJson = ShopSettings['upgrades'][number];

/** An upgrade as the form holds it: numbers as typed. */
export interface UpgradeDraft {
  name: string;
  description: string;
  action: number;
  cost: string;
  delivery_min_days: string;
  delivery_max_days: string;
}

/** The delivery settings as the form holds them. */
export interface DeliveryDraft {
  timezone: string;
  business_days: number[];
  holidays: string[];
  cutoff_time: string;
  processing_days: string;
  delivery_min_days: string;
  delivery_max_days: string;
  bump_delivery_min_days: string;
  bump_delivery_max_days: string;
  upgrades: UpgradeDraft[];
}

type DeliveryJson = Pick<ShopSettings, keyof DeliveryDraft>;

const typed = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n));
/** A count as typed: blank is null; anything else a number (NaN when it is none: the checks say so). */
const countOf = (text: string): number | null => (text.trim() === '' ? null : Number(text));

/** The form of the stored settings; fields an older gateway does not send read as the defaults. */
export function deliveryDraftOf(given: Partial<DeliveryJson>): DeliveryDraft {
  const settings: DeliveryJson = {
    ...DEFAULT_CALENDAR,
    delivery_min_days: null,
    delivery_max_days: null,
    bump_delivery_min_days: null,
    bump_delivery_max_days: null,
    upgrades: [],
    ...given,
  };
  return {
    timezone: settings.timezone,
    business_days: [...settings.business_days],
    holidays: [...settings.holidays],
    cutoff_time: settings.cutoff_time ?? '',
    processing_days: String(settings.processing_days),
    delivery_min_days: typed(settings.delivery_min_days),
    delivery_max_days: typed(settings.delivery_max_days),
    bump_delivery_min_days: typed(settings.bump_delivery_min_days),
    bump_delivery_max_days: typed(settings.bump_delivery_max_days),
    upgrades: settings.upgrades.map((u: UpgradeJson) => ({
      name: u.name,
      description: u.description,
      action: u.action,
      cost: String(u.cost),
      delivery_min_days: typed(u.delivery_min_days),
      delivery_max_days: typed(u.delivery_max_days),
    })),
  };
}

/** What the form sends (and checks): blank processing days are 0, a blank cost 0. */
export function deliveryJsonOf(draft: DeliveryDraft): DeliveryJson {
  return {
    timezone: draft.timezone,
    business_days: [...draft.business_days].sort((a, b) => a - b),
    holidays: draft.holidays,
    cutoff_time: draft.cutoff_time.trim() === '' ? null : draft.cutoff_time,
    processing_days: countOf(draft.processing_days) ?? 0,
    delivery_min_days: countOf(draft.delivery_min_days),
    delivery_max_days: countOf(draft.delivery_max_days),
    bump_delivery_min_days: countOf(draft.bump_delivery_min_days),
    bump_delivery_max_days: countOf(draft.bump_delivery_max_days),
    upgrades: draft.upgrades.map((u) => ({
      name: u.name.trim(),
      description: u.description.trim(),
      action: u.action,
      cost: countOf(u.cost) ?? 0,
      delivery_min_days: countOf(u.delivery_min_days),
      delivery_max_days: countOf(u.delivery_max_days),
    })),
  };
}

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
/**
 * The example line of a window: an order placed now, counted by the same
 * arithmetic checkout uses. Nothing while the calendar or the window has a problem.
 */
export function exampleLine(
  now: Date,
  calendar: ShopCalendar,
  min: number | null,
  max: number | null,
): string | null {
  if (min === null || max === null) return null;
  if (calendarProblems(calendar).length || windowProblems(min, max, '').length) return null;
  const dates = deliveryDates(now, calendar, { min, max });
  return `Ordered now: ${arrivalText(dates.min, dates.max)}`;
}

/** Every message of the delivery sections, as the rules service would answer them on save. */
export function deliveryProblems(json: DeliveryJson): string[] {
  return [
    ...calendarProblems(json),
    ...windowProblems(json.delivery_min_days, json.delivery_max_days, REGULAR_WINDOW_LABEL),
    ...windowProblems(json.bump_delivery_min_days, json.bump_delivery_max_days, BUMP_WINDOW_LABEL),
    ...upgradeProblems(json.upgrades),
  ];
}

function Problems({ problems }: { problems: string[] }) {
  if (!problems.length) return null;
  return (
    <BlockStack gap="100">
      {problems.map((problem) => (
        <InlineError key={problem} message={problem} fieldID="" />
      ))}
    </BlockStack>
  );
}

/** A window's two fields, its problems and its example line. */
function WindowFields({
  problems,
  example,
  ...fields
}: Omit<WindowDayFieldsProps, 'error' | 'maxHelp' | 'condensed'> & {
  problems: string[];
  example: string | null;
}) {
  const { disabled = false } = fields;
  return (
    <BlockStack gap="200">
      <WindowDayFields {...fields} error={problems.length > 0} condensed />
      <Problems problems={problems} />
      {example && !disabled ? (
        <Text as="p" tone="subdued" variant="bodySm">
          {example}
        </Text>
      ) : null}
    </BlockStack>
  );
}

const calendarOf = (json: DeliveryJson): ShopCalendar => ({
  timezone: json.timezone,
  business_days: json.business_days,
  holidays: json.holidays,
  cutoff_time: json.cutoff_time,
  processing_days: json.processing_days,
});

/** "Delivery dates": the calendar, the regular and bump windows. */
export function DeliveryDatesSection({
  draft,
  onChange,
  bumpOn,
  now,
}: {
  draft: DeliveryDraft;
  onChange: (draft: DeliveryDraft) => void;
  bumpOn: boolean;
  now: Date;
}) {
  const [holiday, setHoliday] = useState('');
  const holidayId = useId();
  const json = deliveryJsonOf(draft);
  const calendar = calendarOf(json);
  const set =
    <K extends keyof DeliveryDraft>(key: K) =>
    (value: DeliveryDraft[K]) =>
      onChange({ ...draft, [key]: value });
  const toggleDay = (weekday: number, on: boolean) =>
    set('business_days')(
      on ? [...draft.business_days, weekday] : draft.business_days.filter((d) => d !== weekday),
    );
  const addHoliday = () => {
    if (!holiday || draft.holidays.includes(holiday)) return;
    set('holidays')([...draft.holidays, holiday].sort());
    setHoliday('');
  };
  const regular = windowProblems(
    json.delivery_min_days,
    json.delivery_max_days,
    REGULAR_WINDOW_LABEL,
  );
  const bump = windowProblems(
    json.bump_delivery_min_days,
    json.bump_delivery_max_days,
    BUMP_WINDOW_LABEL,
  );
  return (
    <Layout.AnnotatedSection
      title="Delivery dates"
      description="Checkout can show when an order arrives. Dates count business days from the day the order ships; a rate without a delivery window shows no date."
    >
      <Card>
        <BlockStack gap="400">
          <BlockStack gap="100">
            <Text as="p">
              Time zone:{' '}
              <Text as="span" fontWeight="semibold">
                {draft.timezone}
              </Text>
            </Text>
            <Text as="p" tone="subdued" variant="bodySm">
              Order times, the cutoff and the dates are counted in this time zone.
            </Text>
          </BlockStack>
          <BlockStack gap="100">
            <Text as="h3" variant="headingSm">
              Business days
            </Text>
            <InlineStack gap="300" wrap>
              {WEEKDAYS.map((name, i) => (
                <Checkbox
                  key={name}
                  label={name}
                  checked={draft.business_days.includes(i + 1)}
                  onChange={(on) => toggleDay(i + 1, on)}
                />
              ))}
            </InlineStack>
          </BlockStack>
          <BlockStack gap="200">
            <TextField
              id={holidayId}
              label="Holiday"
              type="date"
              value={holiday}
              onChange={setHoliday}
              helpText="A date the shop does not ship on (up to 100)."
              connectedRight={
                <Button onClick={addHoliday} disabled={!holiday}>
                  Add holiday
                </Button>
              }
              autoComplete="off"
            />
            {draft.holidays.length ? (
              <InlineStack gap="200" wrap>
                {draft.holidays.map((date) => (
                  <Tag
                    key={date}
                    accessibilityLabel={`holiday ${date}`}
                    onRemove={() => set('holidays')(draft.holidays.filter((d) => d !== date))}
                  >
                    {date}
                  </Tag>
                ))}
              </InlineStack>
            ) : (
              <Text as="p" tone="subdued" variant="bodySm">
                No holidays.
              </Text>
            )}
          </BlockStack>
          <FormLayout.Group>
            <TextField
              label="Order cutoff time"
              type="time"
              value={draft.cutoff_time}
              onChange={set('cutoff_time')}
              helpText="Orders from this time on count from the next business day. Blank: no cutoff."
              clearButton
              onClearButtonClick={() => set('cutoff_time')('')}
              autoComplete="off"
            />
            <TextField
              label="Processing days"
              type="number"
              min={0}
              max={MAX_PROCESSING_DAYS}
              step={1}
              value={draft.processing_days}
              onChange={set('processing_days')}
              helpText="Business days between the order and shipping it."
              autoComplete="off"
            />
          </FormLayout.Group>
          <Problems problems={calendarProblems(calendar)} />
          <WindowFields
            label="Regular rate"
            min={draft.delivery_min_days}
            max={draft.delivery_max_days}
            onMin={set('delivery_min_days')}
            onMax={set('delivery_max_days')}
            problems={regular}
            example={exampleLine(now, calendar, json.delivery_min_days, json.delivery_max_days)}
          />
          <WindowFields
            label="Bump rate"
            min={draft.bump_delivery_min_days}
            max={draft.bump_delivery_max_days}
            onMin={set('bump_delivery_min_days')}
            onMax={set('bump_delivery_max_days')}
            problems={bump}
            example={exampleLine(
              now,
              calendar,
              json.bump_delivery_min_days,
              json.bump_delivery_max_days,
            )}
            disabled={!bumpOn}
          />
          <Text as="p" tone="subdued" variant="bodySm">
            Leave both days blank for a rate without dates. A rule that renames the regular rate can
            give it its own window.
          </Text>
        </BlockStack>
      </Card>
    </Layout.AnnotatedSection>
  );
}

const SERVICE_ACTIONS = [
  { label: 'A percent on top of regular shipping', value: '1' },
  { label: 'A static fee on top of regular shipping', value: '2' },
];

const NEW_UPGRADE: UpgradeDraft = {
  name: '',
  description: '',
  action: 2,
  cost: '0',
  delivery_min_days: '',
  delivery_max_days: '',
};

/** "Services": up to three more rates after the regular and bump rates. */
export function ServicesSection({
  draft,
  onChange,
  currencySymbol,
  now,
}: {
  draft: DeliveryDraft;
  onChange: (draft: DeliveryDraft) => void;
  currencySymbol: string | undefined;
  now: Date;
}) {
  const json = deliveryJsonOf(draft);
  const calendar = calendarOf(json);
  const setUpgrades = (upgrades: UpgradeDraft[]) => onChange({ ...draft, upgrades });
  const update = (i: number, change: Partial<UpgradeDraft>) =>
    setUpgrades(draft.upgrades.map((u, k) => (k === i ? { ...u, ...change } : u)));
  return (
    <Layout.AnnotatedSection
      title="Services"
      description={`Up to ${UPGRADE_LIMITS.count} more options at checkout after the regular and bump rates, each priced from the regular rate. Rules do not rename them.`}
    >
      <Card>
        <BlockStack gap="500">
          {draft.upgrades.length === 0 ? (
            <Text as="p" tone="subdued">
              No extra services.
            </Text>
          ) : null}
          {draft.upgrades.map((upgrade, i) => {
            const label = upgradeLabel(i);
            const upgradeJson = json.upgrades[i]!;
            // The problems of this service alone: the same check, on it as the only one.
            const problems = upgradeProblems([upgradeJson]).map((p) =>
              p.replace(upgradeLabel(0), label),
            );
            const windowed = problems.filter((p) => p.includes('delivery window'));
            return (
              <BlockStack gap="300" key={i}>
                <InlineStack align="space-between" blockAlign="center">
                  <Text as="h3" variant="headingSm">
                    {label}
                  </Text>
                  <Button
                    variant="plain"
                    tone="critical"
                    accessibilityLabel={`Remove ${label}`}
                    onClick={() => setUpgrades(draft.upgrades.filter((_, k) => k !== i))}
                  >
                    Remove
                  </Button>
                </InlineStack>
                <FormLayout>
                  <TextField
                    label={`${label} name`}
                    value={upgrade.name}
                    onChange={(name) => update(i, { name })}
                    maxLength={UPGRADE_LIMITS.name}
                    showCharacterCount
                    autoComplete="off"
                  />
                  <TextField
                    label={`${label} description`}
                    value={upgrade.description}
                    onChange={(description) => update(i, { description })}
                    maxLength={UPGRADE_LIMITS.description}
                    showCharacterCount
                    autoComplete="off"
                  />
                  <FormLayout.Group>
                    <Select
                      label={`${label} price`}
                      options={SERVICE_ACTIONS}
                      value={String(upgrade.action)}
                      onChange={(value) => update(i, { action: Number(value) })}
                    />
                    <TextField
                      label={`${label} cost`}
                      type="number"
                      min={0}
                      step={0.01}
                      value={upgrade.cost}
                      onChange={(cost) => update(i, { cost })}
                      prefix={upgrade.action === 2 ? currencySymbol : undefined}
                      suffix={upgrade.action === 1 ? '%' : undefined}
                      autoComplete="off"
                    />
                  </FormLayout.Group>
                  <WindowFields
                    label={label}
                    min={upgrade.delivery_min_days}
                    max={upgrade.delivery_max_days}
                    onMin={(delivery_min_days) => update(i, { delivery_min_days })}
                    onMax={(delivery_max_days) => update(i, { delivery_max_days })}
                    problems={windowed}
                    example={exampleLine(
                      now,
                      calendar,
                      upgradeJson.delivery_min_days,
                      upgradeJson.delivery_max_days,
                    )}
                  />
                  <Problems problems={problems.filter((p) => !windowed.includes(p))} />
                </FormLayout>
              </BlockStack>
            );
          })}
          <InlineStack>
            <Button
              onClick={() => setUpgrades([...draft.upgrades, { ...NEW_UPGRADE }])}
              disabled={draft.upgrades.length >= UPGRADE_LIMITS.count}
            >
              Add a service
            </Button>
          </InlineStack>
        </BlockStack>
      </Card>
    </Layout.AnnotatedSection>
  );
}
