import { BlockStack, FormLayout, Select, Text, TextField } from '@shopify/polaris';
import {
  ACTION_TYPES,
  actionHelp,
  actionInputs,
  actionLabel,
  BLOCK_SHIPPING,
  type FilterScope,
} from '@ratesmith/contracts/filters';
import { LIMITS } from '@ratesmith/contracts/filters';
import { WindowDayFields } from '../components/WindowDayFields';
import type { EditorFilter } from './model';
import { currencySymbol } from '../money/money';
import { useShopCurrency } from '../money/useShopCurrency';
import { WeightInput } from './WeightInput';
import { amountError, useLeft } from './valueErrors';

export interface ActionInputsProps {
  filter: EditorFilter;
  onChange(patch: Partial<EditorFilter>): void;
  scope: FilterScope;
  /** Settings' bump shipping switch: the bump texts are editable only when it is on. */
  bumpEnabled: boolean;
}

type OverrideText =
  'shipping_name' | 'shipping_description' | 'bump_shipping_name' | 'bump_shipping_description';

const APPLY_TO_OPTIONS = [
  { label: 'Each product', value: '0' },
  { label: 'Products without a product rule', value: '1' },
];

/** What a matched filter does: the action and its inputs, the override texts, stop/continue. */
export function ActionInputs({ filter, onChange, scope, bumpEnabled }: ActionInputsProps) {
  const shows = actionInputs(filter.action_type, scope);
  const symbol = currencySymbol(useShopCurrency());
  const overridden = filter.is_shipping_overridden === 'Yes';
  const stopLabel =
    scope === 'ruleset' ? 'Stop processing this ruleset' : 'Stop processing this product rule';
  const bumpHelp = bumpEnabled ? undefined : 'Enable bump shipping in Settings to edit this.';
  /** One of the texts checkout shows instead; the bump ones only while bump shipping is on. */
  const overrideText = (key: OverrideText, label: string, bump = false) => (
    <TextField
      label={label}
      autoComplete="off"
      disabled={bump && !bumpEnabled}
      helpText={bump ? bumpHelp : undefined}
      maxLength={LIMITS.shortText}
      showCharacterCount
      value={filter[key]}
      onChange={(value) => onChange({ [key]: value })}
    />
  );
  // Block Shipping names no rate and always ends the rules: no override, no "after a match".
  const blocks = filter.action_type === BLOCK_SHIPPING;
  // Validation on blur: an amount typed wrong is told at its input once left.
  const [amountLeft, onAmountBlur] = useLeft();
  const [costLeft, onCostBlur] = useLeft();

  return (
    <BlockStack gap="400">
      <FormLayout>
        <FormLayout.Group>
          <Select
            label="Action"
            options={ACTION_TYPES.map((type) => ({
              label: actionLabel(type, scope),
              value: String(type),
            }))}
            value={String(filter.action_type)}
            onChange={(value) => onChange({ action_type: Number(value) })}
            // What the chosen action does to the cart's fee in this scope (docs/rates.md).
            helpText={actionHelp(filter.action_type, scope)}
          />
          {shows.amount ? (
            <TextField
              label="Amount"
              prefix={symbol}
              inputMode="decimal"
              autoComplete="off"
              placeholder="e.g. 4.99"
              value={filter.action_data}
              onChange={(action_data) => onChange({ action_data })}
              onBlur={onAmountBlur}
              error={amountLeft ? amountError('Amount', filter.action_data) : undefined}
            />
          ) : (
            <></>
          )}
        </FormLayout.Group>
        {(shows.applyTo || shows.productCost || shows.weightStep) && (
          <FormLayout.Group>
            {shows.weightStep ? (
              <WeightInput
                label="Weight step"
                helpText="Charged per started step."
                value={filter.action_weight_step}
                onChange={(action_weight_step) => onChange({ action_weight_step })}
              />
            ) : (
              <></>
            )}
            {shows.productCost ? (
              <TextField
                label="Product cost ($X)"
                prefix={symbol}
                helpText="Products whose price is exactly this amount are counted."
                inputMode="decimal"
                autoComplete="off"
                value={filter.rule_product_limit_amount}
                onChange={(rule_product_limit_amount) => onChange({ rule_product_limit_amount })}
                onBlur={onCostBlur}
                error={
                  costLeft
                    ? amountError('Product cost', filter.rule_product_limit_amount)
                    : undefined
                }
              />
            ) : (
              <></>
            )}
            {shows.applyTo ? (
              <Select
                label="Apply To"
                options={APPLY_TO_OPTIONS}
                value={String(filter.global_rule_action)}
                onChange={(value) => onChange({ global_rule_action: Number(value) })}
              />
            ) : (
              <></>
            )}
          </FormLayout.Group>
        )}
        {!blocks && (
          <FormLayout.Group>
            <Select
              label="Override shipping name and description"
              options={[
                { label: 'No', value: 'No' },
                { label: 'Yes', value: 'Yes' },
              ]}
              value={filter.is_shipping_overridden}
              onChange={(value) =>
                onChange({ is_shipping_overridden: value === 'Yes' ? 'Yes' : 'No' })
              }
            />
            <Select
              label="After this rule matches"
              options={[
                { label: stopLabel, value: '0' },
                { label: 'Continue to the next rule', value: '1' },
              ]}
              value={String(filter.post_processing_action_type)}
              onChange={(value) => onChange({ post_processing_action_type: Number(value) })}
            />
          </FormLayout.Group>
        )}
      </FormLayout>
      {overridden && !blocks && (
        <BlockStack gap="200">
          <Text as="h4" variant="headingSm">
            Shown at checkout when this rule matches
          </Text>
          <FormLayout>
            <FormLayout.Group>
              {overrideText('shipping_name', 'Shipping name')}
              {overrideText('shipping_description', 'Shipping description')}
            </FormLayout.Group>
            <FormLayout.Group>
              {overrideText('bump_shipping_name', 'Bump shipping name', true)}
              {overrideText('bump_shipping_description', 'Bump shipping description', true)}
            </FormLayout.Group>
            <WindowDayFields
              label="Delivery window"
              min={filter.delivery_min_days}
              max={filter.delivery_max_days}
              onMin={(delivery_min_days) => onChange({ delivery_min_days })}
              onMax={(delivery_max_days) => onChange({ delivery_max_days })}
              maxHelp="The regular rate's dates when this rule names it; blank uses the window in Settings."
            />
          </FormLayout>
        </BlockStack>
      )}
    </BlockStack>
  );
}
