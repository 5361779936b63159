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

export interface ListStateProps {
  loading: boolean;
  error: unknown;
  /** True when loaded without error and there is nothing to list. */
  empty: boolean;
  onRetry: () => void;
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
  const { loading, error, empty, children } = props;
  if (error) return <ErrorState {...props} />;
  if (loading && empty) return <LoadingState label={props.label} />;
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

export function ErrorState({
  error,
  onRetry,
  errorFallback = 'Data Fetch Failed',
  loading,
}: Pick<ListStateProps, 'error' | 'onRetry' | 'errorFallback' | 'loading'>) {
  return (
    <Card>
      <BlockStack gap="300" inlineAlign="start">
        <div role="alert">
          <Text as="p" tone="critical" fontWeight="medium">
            {messageOf(error, errorFallback)}
          </Text>
        </div>
        <Button onClick={onRetry} loading={loading}>
          Retry
        </Button>
      </BlockStack>
    </Card>
  );
}
