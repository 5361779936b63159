import { Banner, BlockStack, Button, Card, List, Text } from '@shopify/polaris';
import { PlusIcon } from '@shopify/polaris-icons';
import { FilterCard } from './FilterCard';
import type { FilterScope } from '@ratesmith/contracts/filters';
import { newFilter, type EditorFilter } from './model';
import { move } from './tree';

export interface FilterEditorProps {
  filters: EditorFilter[];
  onChange(filters: EditorFilter[]): void;
  scope: FilterScope;
  bumpEnabled: boolean;
  /** What stands between the merchant and Save All (client check, then the server's). */
  errors: readonly string[];
}

/** The ordered filter list of a ruleset or a product rule. */
export function FilterEditor({ filters, onChange, scope, bumpEnabled, errors }: FilterEditorProps) {
  const replace = (index: number, filter: EditorFilter) =>
    onChange(filters.map((f, i) => (i === index ? filter : f)));

  return (
    <BlockStack gap="400">
      {errors.length > 0 && <ErrorList errors={errors} />}
      {filters.length === 0 && (
        <Card>
          <Text as="p" alignment="center" tone="subdued">
            No rules found
          </Text>
        </Card>
      )}
      {filters.map((filter, index) => (
        <FilterCard
          key={filter.id}
          filter={filter}
          number={index + 1}
          count={filters.length}
          scope={scope}
          bumpEnabled={bumpEnabled}
          onChange={(next) => replace(index, next)}
          onMove={(offset) => onChange(move(filters, index, offset))}
          onRemove={() => onChange(filters.filter((_, i) => i !== index))}
        />
      ))}
      <div>
        <Button icon={PlusIcon} onClick={() => onChange([...filters, newFilter()])}>
          Add Rule
        </Button>
      </div>
    </BlockStack>
  );
}

export function ErrorList({ errors }: { errors: readonly string[] }) {
  return (
    <Banner tone="critical" title="Please fix the following errors:">
      <List type="bullet">
        {errors.map((error) => (
          <List.Item key={error}>{error}</List.Item>
        ))}
      </List>
    </Banner>
  );
}
