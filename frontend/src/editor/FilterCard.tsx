import { BlockStack, Button, Card, Divider, InlineStack, Text, TextField } from '@shopify/polaris';
import { ArrowDownIcon, ArrowUpIcon, DeleteIcon } from '@shopify/polaris-icons';
import { ActionInputs } from './ActionInputs';
import { ConditionEditor } from './ConditionEditor';
import type { FilterScope } from '@ratesmith/contracts/filters';
import { conditionsHint, LIMITS } from '@ratesmith/contracts/filters';
import type { EditorFilter } from './model';

export interface FilterCardProps {
  filter: EditorFilter;
  /** 1-based position, as in "Rule #N". */
  number: number;
  count: number;
  scope: FilterScope;
  bumpEnabled: boolean;
  onChange(filter: EditorFilter): void;
  onMove(offset: -1 | 1): void;
  onRemove(): void;
}

/** One filter: name, conditions, action, override and stop/continue, with reorder and remove. */
export function FilterCard(props: FilterCardProps) {
  const { filter, number, count, scope, bumpEnabled, onChange, onMove, onRemove } = props;
  const title = `Rule #${number}`;
  return (
    <Card>
      <section aria-label={title}>
        <BlockStack gap="400">
          <InlineStack align="space-between" blockAlign="center">
            <Text as="h3" variant="headingMd">
              {title}
              {filter.name.trim() ? `: ${filter.name.trim()}` : ''}
            </Text>
            <InlineStack gap="100">
              <Button
                icon={ArrowUpIcon}
                variant="tertiary"
                disabled={number === 1}
                accessibilityLabel={`Move rule #${number} up`}
                onClick={() => onMove(-1)}
              />
              <Button
                icon={ArrowDownIcon}
                variant="tertiary"
                disabled={number === count}
                accessibilityLabel={`Move rule #${number} down`}
                onClick={() => onMove(1)}
              />
              <Button icon={DeleteIcon} tone="critical" variant="tertiary" onClick={onRemove}>
                Remove rule
              </Button>
            </InlineStack>
          </InlineStack>
          <TextField
            label="Rule name"
            autoComplete="off"
            maxLength={LIMITS.filterName}
            showCharacterCount
            value={filter.name}
            onChange={(name) => onChange({ ...filter, name })}
          />
          <ConditionEditor
            query={filter.raw_query}
            onChange={(raw_query) => onChange({ ...filter, raw_query })}
            hint={conditionsHint(scope)}
          />
          <Divider />
          <ActionInputs
            filter={filter}
            scope={scope}
            bumpEnabled={bumpEnabled}
            onChange={(patch) => onChange({ ...filter, ...patch })}
          />
        </BlockStack>
      </section>
    </Card>
  );
}
