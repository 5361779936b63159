import { BlockStack, Spinner, Text } from '@shopify/polaris';

/** Covers the page while a step that ends in a redirect runs (install, reinstall, verify). */
export function LoadingOverlay({ label }: { label: string }) {
  return (
    <div
      role="status"
      aria-live="assertive"
      data-testid="loading-overlay"
      style={{
        position: 'fixed',
        inset: 0,
        zIndex: 500,
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        background: 'rgba(255, 255, 255, 0.8)',
      }}
    >
      <BlockStack gap="300" inlineAlign="center">
        <Spinner accessibilityLabel={label} />
        <Text as="p" variant="headingMd">
          {label}
        </Text>
      </BlockStack>
    </div>
  );
}
