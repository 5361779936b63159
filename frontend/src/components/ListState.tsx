import {
  BlockStack,
  Button,
  Card,
  EmptyState,
  InlineStack,
  SkeletonBodyText,
  Spinner,
  Text,
} from '@shopify/polaris';
import type { ReactNode } from 'react';
import { messageOf } from '../api';
import type { Loaded } from './useLoader';

/** What a list's states read of its load (useLoader): Retry loads it again. */
export type LoadState = Pick<Loaded<unknown>, 'data' | 'loading' | 'error' | 'reload'>;

export interface ListStateProps {
  loaded: LoadState;
  /**
   * True when loaded without error and there is nothing to list; by default, no
   * data yet or an empty array.
   */
  empty?: boolean;
  /** Default "Data Fetch Failed" (the original app's text) unless the server said more. */
  errorFallback?: string;
  /** What the list is, for the loading label ("Loading rulesets"). */
  label: string;
  emptyHeading: string;
  emptyText?: string;
  emptyAction?: { content: string; onAction: () => void };
  children: ReactNode;
}

/**
 * Every list's three states besides "has items": loading, empty, and an
 * error with Retry. While reloading a list that has items, the items stay.
 */
export function ListState(props: ListStateProps) {
  const { loaded, children } = props;
  const { data } = loaded;
  const empty = props.empty ?? (data === undefined || (Array.isArray(data) && data.length === 0));
  if (loaded.error) return <ErrorState loaded={loaded} errorFallback={props.errorFallback} />;
  if (loaded.loading && empty) return <LoadingState label={props.label} />;
  if (empty) {
    return (
      <Card>
        <EmptyState heading={props.emptyHeading} image="" action={props.emptyAction} fullWidth>
          {props.emptyText ? <p>{props.emptyText}</p> : null}
        </EmptyState>
      </Card>
    );
  }
  return <>{children}</>;
}

export function LoadingState({ label }: { label: string }) {
  return (
    <Card>
      <div role="status" aria-live="polite" aria-busy="true">
        <BlockStack gap="400">
          <InlineStack gap="200" blockAlign="center">
            <Spinner size="small" accessibilityLabel={label} />
            <Text as="span" tone="subdued">
              {label}…
            </Text>
          </InlineStack>
          <SkeletonBodyText lines={3} />
        </BlockStack>
      </div>
    </Card>
  );
}

/** A load's error with Retry (which shows as busy while the load runs again). */
export function ErrorState({
  loaded,
  errorFallback = 'Data Fetch Failed',
}: {
  loaded: Omit<LoadState, 'data'>;
  errorFallback?: string;
}) {
  return (
    <Card>
      <BlockStack gap="300" inlineAlign="start">
        <div role="alert">
          <Text as="p" tone="critical" fontWeight="medium">
            {messageOf(loaded.error, errorFallback)}
          </Text>
        </div>
        <Button onClick={() => void loaded.reload()} loading={loaded.loading}>
          Retry
        </Button>
      </BlockStack>
    </Card>
  );
}
