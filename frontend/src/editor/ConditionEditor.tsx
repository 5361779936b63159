import type { ReactElement } from 'react';
import {
  BlockStack,
  Box,
  Button,
  ButtonGroup,
  InlineStack,
  Select,
  Text,
  TextField,
} from '@shopify/polaris';
import { DeleteIcon, PlusIcon } from '@shopify/polaris-icons';
import { CountrySelect } from './CountrySelect';
import { currencySymbol } from '../money/money';
import { useShopCurrency } from '../money/useShopCurrency';
import { PostalCodeInput } from './PostalCodeInput';
import { RegionSelect } from './RegionSelect';
import { WeightInput } from './WeightInput';
import {
  fieldByKey,
  FIELDS,
  isListOperator,
  OPERATOR_LABELS,
  type FieldDefinition,
  type ValueKind,
} from '@ratesmith/contracts/filters';
import { ItemTextInput } from './ItemTextInput';
import { ListInput } from './ListInput';
import type { CountAmount, EditorCondition, EditorGroup, WeightValue } from './model';
import { useLeft, valueError } from './valueErrors';
import { focusWhenReady } from '../shell/focus';
import {
  addCondition,
  addGroup,
  lastAddedCondition,
  removeNode,
  setCombinator,
  setField,
  setOperator,
  setValue,
} from './tree';

export interface ConditionEditorProps {
  /** The filter's raw_query. */
  query: EditorGroup;
  onChange(query: EditorGroup): void;
  /** One line above the conditions (what a product rule's conditions count). */
  hint?: string;
}

const FIELD_OPTIONS = FIELDS.map((field) => ({ label: field.label, value: field.key }));

/** A condition's Field select, and a group's Add condition button: where focus goes after an add or a remove. */
const fieldId = (conditionId: string) => `condition-field-${conditionId}`;
const addConditionId = (groupId: string) => `add-condition-${groupId}`;
const byId = (id: string) => () => document.getElementById(id);

/** Adds with `add`, then focuses the added condition's Field (issue 36, point 9: the new item). */
function adding(
  root: EditorGroup,
  groupId: string,
  add: (root: EditorGroup, groupId: string) => EditorGroup,
  onChange: (root: EditorGroup) => void,
) {
  const next = add(root, groupId);
  onChange(next);
  const added = lastAddedCondition(next, groupId);
  if (added) focusWhenReady(byId(fieldId(added)));
}

/** Removes node `id` of group `groupId`; focus goes to the group's Add condition, which stays. */
function removing(
  root: EditorGroup,
  id: string,
  groupId: string,
  onChange: (root: EditorGroup) => void,
) {
  onChange(removeNode(root, id));
  focusWhenReady(byId(addConditionId(groupId)));
}

/** The nested condition editor: AND/OR groups of conditions and groups. */
export function ConditionEditor({ query, onChange, hint }: ConditionEditorProps) {
  const editor = <GroupEditor group={query} root={query} onChange={onChange} depth={0} />;
  if (!hint) return editor;
  return (
    <BlockStack gap="100">
      <Text as="p" variant="bodySm" tone="subdued">
        {hint}
      </Text>
      {editor}
    </BlockStack>
  );
}

interface NodeProps {
  root: EditorGroup;
  onChange(root: EditorGroup): void;
}

function GroupEditor({
  group,
  root,
  onChange,
  depth,
  parentId,
}: NodeProps & { group: EditorGroup; depth: number; parentId?: string }) {
  const isRoot = depth === 0;
  const name = isRoot ? 'Conditions' : `Group (level ${depth + 1})`;
  return (
    <Box
      padding="300"
      borderWidth="025"
      borderColor={isRoot ? 'border' : 'border-secondary'}
      borderRadius="200"
      background={depth % 2 === 0 ? 'bg-surface-secondary' : 'bg-surface'}
    >
      <section aria-label={name}>
        <BlockStack gap="300">
          <InlineStack gap="200" align="space-between" blockAlign="center">
            <InlineStack gap="200" blockAlign="center">
              <Text as="span" variant="bodySm" tone="subdued">
                {isRoot ? 'Match' : 'Group: match'}
              </Text>
              <div role="group" aria-label={`${name}: combine with`}>
                <ButtonGroup variant="segmented">
                  {(['AND', 'OR'] as const).map((combinator) => (
                    <Button
                      key={combinator}
                      size="slim"
                      pressed={group.condition === combinator}
                      onClick={() => onChange(setCombinator(root, group.id, combinator))}
                    >
                      {combinator}
                    </Button>
                  ))}
                </ButtonGroup>
              </div>
            </InlineStack>
            <InlineStack gap="200">
              <Button
                size="slim"
                icon={PlusIcon}
                id={addConditionId(group.id)}
                onClick={() => adding(root, group.id, addCondition, onChange)}
              >
                Add condition
              </Button>
              <Button
                size="slim"
                icon={PlusIcon}
                onClick={() => adding(root, group.id, addGroup, onChange)}
              >
                Add group
              </Button>
              {parentId !== undefined && (
                <Button
                  size="slim"
                  tone="critical"
                  variant="plain"
                  onClick={() => removing(root, group.id, parentId, onChange)}
                >
                  Remove group
                </Button>
              )}
            </InlineStack>
          </InlineStack>
          {group.rules.length === 0 && (
            <Text as="p" tone={isRoot ? 'subdued' : 'critical'}>
              {isRoot
                ? 'Every cart: with no conditions this rule matches every cart. Add a condition to narrow it.'
                : 'This group is empty: add a condition or remove it.'}
            </Text>
          )}
          {group.rules.map((rule) =>
            rule.type === 'group' ? (
              <GroupEditor
                key={rule.id}
                group={rule}
                root={root}
                onChange={onChange}
                depth={depth + 1}
                parentId={group.id}
              />
            ) : (
              <ConditionRow
                key={rule.id}
                condition={rule}
                groupId={group.id}
                root={root}
                onChange={onChange}
              />
            ),
          )}
        </BlockStack>
      </section>
    </Box>
  );
}

function ConditionRow({
  condition,
  groupId,
  root,
  onChange,
}: NodeProps & { condition: EditorCondition; groupId: string }) {
  const field = fieldByKey(condition.field);
  const fieldOptions = field
    ? FIELD_OPTIONS
    : [{ label: `Unknown field (${condition.field})`, value: condition.field }, ...FIELD_OPTIONS];
  const operators = field?.operators ?? [condition.operator];
  const set = (value: EditorCondition['value']) => onChange(setValue(root, condition.id, value));
  // Validation on blur: a value typed wrong is told at its input once the merchant leaves it.
  const [left, onBlur] = useLeft();
  const error = left && field ? valueError(field, condition.operator, condition.value) : undefined;

  return (
    <div role="group" aria-label="Condition">
      {/* Wraps on a narrow screen (app.css): on a phone each part takes its own line. */}
      <div className="rs-condition-row">
        <div className="rs-condition-field">
          <Select
            label="Field"
            labelHidden
            id={fieldId(condition.id)}
            options={fieldOptions}
            value={condition.field}
            onChange={(key) => onChange(setField(root, condition.id, key))}
          />
        </div>
        <div className="rs-condition-operator">
          <Select
            label="Operator"
            labelHidden
            options={operators.map((op) => ({ label: OPERATOR_LABELS[op] ?? op, value: op }))}
            value={condition.operator}
            onChange={(operator) => onChange(setOperator(root, condition.id, operator))}
          />
        </div>
        <div className="rs-condition-value" onBlur={onBlur}>
          {field && (
            <ValueInput
              field={field}
              operator={condition.operator}
              value={condition.value}
              onChange={set}
              error={error}
            />
          )}
        </div>
        <Button
          icon={DeleteIcon}
          tone="critical"
          variant="tertiary"
          accessibilityLabel="Remove condition"
          onClick={() => removing(root, condition.id, groupId, onChange)}
        />
      </div>
    </div>
  );
}

/** The list operators' inputs, by the kinds that take lists (docs/rates.md, "Lists"). */
const LIST_INPUTS = {
  country: { label: 'Country codes', placeholder: 'Country codes, e.g. CA, MX' },
  region: { label: 'State or province codes', placeholder: 'e.g. US-CA, US-OR' },
  postal_code: { label: 'Postal codes', placeholder: 'e.g. 99501, 99502' },
} satisfies Partial<Record<ValueKind, { label: string; placeholder: string }>>;

interface ValueInputProps {
  field: FieldDefinition;
  operator: string;
  value: EditorCondition['value'];
  onChange(value: EditorCondition['value']): void;
  /** What is wrong with the value as typed, once left (valueError); at the inputs that take typed numbers. */
  error?: string;
}

/** The value's input, one per value kind of the catalogue (a new kind fails the type check here). */
function ValueInput({ field, operator, value, onChange, error }: ValueInputProps): ReactElement {
  const kind = field.kind;
  const text = typeof value === 'string' ? value : '';
  const symbol = currencySymbol(useShopCurrency());
  if (isListOperator(operator)) {
    const list = LIST_INPUTS[kind as keyof typeof LIST_INPUTS];
    if (list) {
      return <ListInput {...list} values={Array.isArray(value) ? value : []} onChange={onChange} />;
    }
  }
  switch (field.kind) {
    case 'weight':
      return (
        <WeightInput
          label="Weight"
          labelHidden
          value={value as WeightValue}
          onChange={onChange}
          error={error}
        />
      );
    case 'region':
      return <RegionSelect label="State or province" value={text} onChange={onChange} />;
    case 'postal_code':
      return (
        <PostalCodeInput
          operator={operator}
          value={value as string | { from: string; to: string }}
          onChange={onChange}
        />
      );
    case 'country':
      return <CountrySelect label="Country" labelHidden value={text} onChange={onChange} />;
    case 'amount':
    case 'count':
      return (
        <TextField
          label={kind === 'amount' ? 'Amount' : 'Count'}
          labelHidden
          prefix={kind === 'amount' ? symbol : undefined}
          placeholder={kind === 'amount' ? 'Amount, e.g. 50.00' : 'Number of products'}
          inputMode={kind === 'amount' ? 'decimal' : 'numeric'}
          autoComplete="off"
          value={text}
          onChange={onChange}
          error={error}
        />
      );
    case 'count_amount': {
      const pair: CountAmount =
        typeof value === 'object' && 'count' in value ? value : { count: '', amount: '' };
      return (
        <InlineStack gap="200">
          <TextField
            label="Count"
            labelHidden
            placeholder="0"
            prefix="Count"
            inputMode="numeric"
            autoComplete="off"
            value={pair.count}
            onChange={(count) => onChange({ ...pair, count })}
            // The message is the pair's: said once, at the amount, and both marked.
            error={error ? true : undefined}
          />
          <TextField
            label="Amount ($X)"
            labelHidden
            placeholder="0.00"
            prefix="Price $X ="
            inputMode="decimal"
            autoComplete="off"
            value={pair.amount}
            onChange={(amount) => onChange({ ...pair, amount })}
            error={error}
          />
        </InlineStack>
      );
    }
    case 'item_text':
      return (
        <ItemTextInput figure={field.figure} label={field.label} value={text} onChange={onChange} />
      );
  }
}
