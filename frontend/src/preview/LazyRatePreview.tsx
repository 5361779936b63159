import { BlockStack, Card, InlineStack, Spinner, Text } from '@shopify/polaris';
import { lazy, Suspense } from 'react';
import type { RatePreviewProps } from './RatePreview';

/**
 * Why a draft cannot be previewed yet: it has errors, which the editor lists
 * only once the merchant has left an input or pressed Save All (RulesEditorPage).
 */
export function previewBlockedBy(errors: readonly unknown[]): string | undefined {
  return errors.length > 0
    ? 'Complete these rules to preview them: Save All lists what is missing.'
    : undefined;
}

const RatePreview = lazy(() => import('./RatePreview').then((m) => ({ default: m.RatePreview })));

/**
 * The rate preview under an editor, as its own chunk: the editor's filters
 * show without waiting for it (docs/performance.md, "First load of the admin").
 */
export function LazyRatePreview(props: RatePreviewProps) {
  return (
    <Suspense fallback={<PreviewLoading />}>
      <RatePreview {...props} />
    </Suspense>
  );
}

function PreviewLoading() {
  return (
    <Card>
      <section aria-label="Rate preview">
        <BlockStack gap="200">
          <Text as="h2" variant="headingMd">
            Rate preview
          </Text>
          <InlineStack gap="200" blockAlign="center">
            <Spinner size="small" accessibilityLabel="Loading the rate preview" />
            <Text as="p" tone="subdued">
              Loading the rate preview…
            </Text>
          </InlineStack>
        </BlockStack>
      </section>
    </Card>
  );
}
