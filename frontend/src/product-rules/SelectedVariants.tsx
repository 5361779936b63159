import { BlockStack, Box, Button, Checkbox, InlineStack, Spinner, Text } from '@shopify/polaris';
import { useCallback } from 'react';
import { messageOf, type StoreVariant } from '../api';
import { useLoader } from '../components/useLoader';
import { formatAmount } from '../money/money';
import { useShopCurrency, useShopWeightUnit } from '../money/useShopCurrency';
import { formatWeight } from '../money/weight';
import type { LoadVariants, StoreProduct } from './types';

export interface SelectedVariantsProps {
  product: StoreProduct;
  /** The variants picked, or undefined for every variant. */
  picked: string[] | undefined;
  onPickVariants(product: StoreProduct, variantIds: string[]): void;
  loadVariants: LoadVariants;
}

/**
 * Under a checked product: its variants to keep (when it has several) with
 * each one's weight in the shop's unit. Weights are read when the product is
 * checked (mounted), apart from the page, because they would make the page
 * query cost more than Shopify allows; unchecking cancels the read.
 */
export function SelectedVariants({
  product,
  picked,
  onPickVariants,
  loadVariants,
}: SelectedVariantsProps) {
  // Read once a session (cached): the tiles show only while the picker is open.
  const currency = useShopCurrency();
  const shopUnit = useShopWeightUnit();
  const weights = useLoader(
    useCallback(
      async (signal: AbortSignal) =>
        new Map((await loadVariants(product.id, signal)).map((v) => [v.id, v.weight])),
      [loadVariants, product.id],
    ),
  );
  const weightOf = (variantId: string) => {
    const weight = weights.data?.get(variantId);
    return weight ? formatWeight(weight, shopUnit ?? weight.unit) : undefined;
  };
  const variants = product.variants.edges.map(({ node }) => node);
  const all = variants.map((v) => v.id);
  const chosen = picked ?? all;

  const status = weights.loading ? (
    <InlineStack gap="100" blockAlign="center">
      <Spinner size="small" accessibilityLabel={`Loading the weights of ${product.title}`} />
      <Text as="span" variant="bodySm" tone="subdued">
        Loading weights…
      </Text>
    </InlineStack>
  ) : weights.error ? (
    <InlineStack gap="100" blockAlign="center">
      <Text as="span" variant="bodySm" tone="critical">
        {`Weights could not be loaded: ${messageOf(weights.error, 'please try again.')}`}
      </Text>
      <Button
        variant="plain"
        onClick={() => void weights.reload()}
        accessibilityLabel={`Retry loading the weights of ${product.title}`}
      >
        Retry
      </Button>
    </InlineStack>
  ) : null;

  if (variants.length === 1) {
    const weight = weightOf(variants[0]!.id);
    return (
      <Box paddingBlockStart="200" paddingInlineStart="200">
        {status ?? (
          <Text as="p" variant="bodySm" tone="subdued">
            {weight ? `Weight: ${weight}` : 'No weight in Shopify'}
          </Text>
        )}
      </Box>
    );
  }
  return (
    <Box paddingBlockStart="200" paddingInlineStart="200">
      <fieldset className="rs-variant-picks">
        <legend>
          <Text as="span" variant="bodySm" tone="subdued">
            {`Variants of ${product.title}: the product rule covers those checked`}
          </Text>
        </legend>
        <BlockStack gap="100">
          {status}
          {variants.map((variant) => (
            <Checkbox
              key={variant.id}
              label={variantLabel(variant, weightOf(variant.id), currency)}
              checked={chosen.includes(variant.id)}
              onChange={(on) =>
                onPickVariants(
                  product,
                  on
                    ? all.filter((id) => id === variant.id || chosen.includes(id))
                    : chosen.filter((id) => id !== variant.id),
                )
              }
            />
          ))}
        </BlockStack>
      </fieldset>
    </Box>
  );
}

/** "Small · 1.5 lb (€19.99)"; without a known weight, "Small (€19.99)". */
function variantLabel(
  variant: Pick<StoreVariant, 'title' | 'price'>,
  weight: string | undefined,
  currency: string | null,
): string {
  const price = formatAmount(Number(variant.price), currency);
  return weight ? `${variant.title} · ${weight} (${price})` : `${variant.title} (${price})`;
}
