import {
  Banner,
  BlockStack,
  Box,
  Checkbox,
  Icon,
  InlineGrid,
  InlineStack,
  Modal,
  Pagination,
  Spinner,
  Text,
  TextField,
  Thumbnail,
} from '@shopify/polaris';
import { ImageIcon, SearchIcon } from '@shopify/polaris-icons';
import { useCallback, useEffect, useRef, useState } from 'react';
import { SelectedVariants } from './SelectedVariants';
import type {
  LoadProductPage,
  LoadVariants,
  PageRequest,
  PickedProduct,
  ProductPage,
  StoreProduct,
} from './types';

export interface ProductPickerProps {
  open: boolean;
  onClose(): void;
  /** Loads one page of store products (15); the page passes the API call. */
  loadPage: LoadProductPage;
  /**
   * Adds the chosen products: ids as `gid://shopify/Product/…`, or
   * `{id, variant_ids}` for a product limited to some variants; resolves when done.
   */
  onAdd(products: PickedProduct[]): Promise<void>;
  /** Reads a checked product's variants with their weights. */
  loadVariants: LoadVariants;
  /** How long typing pauses before a search starts. */
  searchDelayMs?: number;
}

type PageState =
  { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'ready'; page: ProductPage };

/** The product picker: search, 3-column grid, paging, selection kept across pages. */
export function ProductPicker({
  open,
  onClose,
  loadPage,
  onAdd,
  loadVariants,
  searchDelayMs = 300,
}: ProductPickerProps) {
  const [search, setSearch] = useState('');
  const [request, setRequest] = useState<PageRequest>({ search: '' });
  const [state, setState] = useState<PageState>({ kind: 'loading' });
  const [selected, setSelected] = useState<string[]>([]);
  /** Variant ids picked per selected product; absent: every variant. */
  const [variantPicks, setVariantPicks] = useState<Record<string, string[]>>({});
  const [adding, setAdding] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const latest = useRef(0);

  useEffect(() => {
    if (!open) return;
    const call = ++latest.current;
    setState({ kind: 'loading' });
    loadPage(request).then(
      (page) => call === latest.current && setState({ kind: 'ready', page }),
      (error: unknown) =>
        call === latest.current &&
        setState({
          kind: 'error',
          message: error instanceof Error ? error.message : 'Failed to load products.',
        }),
    );
  }, [open, request, loadPage, attempt]);

  // A new search always starts again at page 1 (no cursor).
  useEffect(() => {
    if (search === request.search) return;
    const timer = setTimeout(() => setRequest({ search }), searchDelayMs);
    return () => clearTimeout(timer);
  }, [search, request.search, searchDelayMs]);

  // Closing forgets the selection and the search, so the next opening starts clean.
  useEffect(() => {
    if (open) return;
    setSelected([]);
    setVariantPicks({});
    setSearch('');
    setRequest({ search: '' });
  }, [open]);

  const toggle = useCallback((id: string, on: boolean) => {
    setSelected((ids) => (on ? [...ids, id] : ids.filter((other) => other !== id)));
    setVariantPicks(({ [id]: _dropped, ...rest }) => rest);
  }, []);

  const pickVariants = useCallback(
    (product: StoreProduct, variantIds: string[]) =>
      setVariantPicks((picks) => {
        const { [product.id]: _dropped, ...rest } = picks;
        // Every variant picked is the whole product again.
        return variantIds.length === product.variants.edges.length
          ? rest
          : { ...rest, [product.id]: variantIds };
      }),
    [],
  );

  const noVariant = Object.values(variantPicks).some((ids) => ids.length === 0);
  const add = async () => {
    setAdding(true);
    try {
      await onAdd(
        selected.map((id) => (variantPicks[id] ? { id, variant_ids: variantPicks[id] } : id)),
      );
    } finally {
      setAdding(false);
    }
  };

  const page = state.kind === 'ready' ? state.page : null;
  const count = selected.length;
  return (
    <Modal
      open={open}
      onClose={onClose}
      title="Add products"
      size="large"
      primaryAction={
        count > 0
          ? {
              content: `Add ${count} ${count === 1 ? 'product' : 'products'}`,
              onAction: add,
              loading: adding,
              disabled: noVariant,
            }
          : undefined
      }
      secondaryActions={[{ content: 'Cancel', onAction: onClose }]}
    >
      <Modal.Section>
        <BlockStack gap="400">
          <TextField
            label="Search products"
            labelHidden
            placeholder="Search products"
            prefix={<Icon source={SearchIcon} tone="base" />}
            autoComplete="off"
            value={search}
            onChange={setSearch}
            clearButton
            onClearButtonClick={() => setSearch('')}
          />
          {state.kind === 'loading' && (
            <InlineStack align="center">
              <Spinner accessibilityLabel="Loading products" size="large" />
            </InlineStack>
          )}
          {state.kind === 'error' && (
            <Banner
              tone="critical"
              title="Products could not be loaded"
              action={{ content: 'Retry', onAction: () => setAttempt((n) => n + 1) }}
            >
              <p>{state.message}</p>
            </Banner>
          )}
          {page && page.edges.length === 0 && (
            <Text as="p" alignment="center" tone="subdued">
              {request.search ? `No products match “${request.search}”.` : 'No products found.'}
            </Text>
          )}
          {page && page.edges.length > 0 && (
            <InlineGrid columns={3} gap="300">
              {page.edges.map(({ node }) => (
                <ProductTile
                  key={node.id}
                  product={node}
                  checked={selected.includes(node.id)}
                  onToggle={toggle}
                  picked={variantPicks[node.id]}
                  onPickVariants={pickVariants}
                  loadVariants={loadVariants}
                />
              ))}
            </InlineGrid>
          )}
          {page && (page.pageInfo.hasPreviousPage || page.pageInfo.hasNextPage) && (
            <InlineStack align="center">
              <Pagination
                hasPrevious={page.pageInfo.hasPreviousPage}
                hasNext={page.pageInfo.hasNextPage}
                previousTooltip="Previous page"
                nextTooltip="Next page"
                onPrevious={() =>
                  setRequest({ search: request.search, before: page.pageInfo.startCursor ?? '' })
                }
                onNext={() =>
                  setRequest({ search: request.search, after: page.pageInfo.endCursor ?? '' })
                }
              />
            </InlineStack>
          )}
          <Text as="p" tone={noVariant ? 'critical' : 'subdued'}>
            {count === 0
              ? 'No products selected'
              : noVariant
                ? 'Pick at least one variant of each selected product.'
                : `${count} selected`}
          </Text>
        </BlockStack>
      </Modal.Section>
    </Modal>
  );
}

interface ProductTileProps {
  product: StoreProduct;
  checked: boolean;
  onToggle(id: string, on: boolean): void;
  /** The variants picked, or undefined for every variant. */
  picked: string[] | undefined;
  onPickVariants(product: StoreProduct, variantIds: string[]): void;
  loadVariants: LoadVariants;
}

function ProductTile({
  product,
  checked,
  onToggle,
  picked,
  onPickVariants,
  loadVariants,
}: ProductTileProps) {
  const image = product.images.edges[0]?.node;
  const variants = product.variants.edges.length;
  return (
    <Box
      padding="300"
      borderWidth="025"
      borderRadius="200"
      borderColor={checked ? 'border-emphasis' : 'border'}
      background={checked ? 'bg-surface-selected' : 'bg-surface'}
    >
      <InlineStack gap="300" blockAlign="center" wrap={false}>
        <Thumbnail
          source={image?.url ?? ImageIcon}
          alt={image?.altText || product.title}
          size="medium"
        />
        <Checkbox
          label={product.title}
          checked={checked}
          onChange={(on) => onToggle(product.id, on)}
          helpText={`${variants} ${variants === 1 ? 'variant' : 'variants'}`}
        />
      </InlineStack>
      {checked && variants > 0 && (
        <SelectedVariants
          product={product}
          picked={picked}
          onPickVariants={onPickVariants}
          loadVariants={loadVariants}
        />
      )}
    </Box>
  );
}
