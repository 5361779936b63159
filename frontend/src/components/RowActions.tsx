import { Button, ButtonGroup, IndexTable } from '@shopify/polaris';

export interface RowAction {
  content: string;
  onAction: () => void;
  disabled?: boolean;
  loading?: boolean;
  destructive?: boolean;
}

/**
 * A list row's last cell: its buttons, right-aligned, each named with the row's
 * name for screen readers ("Delete Summer rates"). `false` leaves an action out
 * in its place, so the others keep theirs.
 */
export function RowActions({ name, actions }: { name: string; actions: (RowAction | false)[] }) {
  return (
    <IndexTable.Cell>
      <div style={{ display: 'flex', justifyContent: 'flex-end' }}>
        <ButtonGroup>
          {actions.map(
            (action, index) =>
              action && (
                <Button
                  key={index}
                  onClick={action.onAction}
                  disabled={action.disabled}
                  loading={action.loading}
                  tone={action.destructive ? 'critical' : undefined}
                  accessibilityLabel={`${action.content} ${name}`}
                >
                  {action.content}
                </Button>
              ),
          )}
        </ButtonGroup>
      </div>
    </IndexTable.Cell>
  );
}
