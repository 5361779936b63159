import { Badge, Card, IndexTable, Page, Text, Thumbnail } from '@shopify/polaris';
import { ImageIcon } from '@shopify/polaris-icons';
import { useCallback, useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import {
  messageOf,
  useApi,
  type ProductRulesList,
  type ProductRuleSummary,
  type StatusReply,
} from '../api';
import { ConfirmModal } from '../components/ConfirmModal';
import { ListState } from '../components/ListState';
import { RowActions } from '../components/RowActions';
import { useGet } from '../components/useLoader';
import { ProductPicker } from '../product-rules/ProductPicker';
import { readStoreVariants } from '../product-rules/store-variants';
import type { PageRequest, PickedProduct, ProductPage } from '../product-rules/types';
import { useToast } from '../toast';
import { focusWhenReady, MAIN_ID, pageHeading } from '../shell/focus';
import { dialogOpener, firstControl } from '../shell/focus-targets';

interface ShopifyProductsReply {
  status: boolean;
  products: ProductPage;
}

/** /product-rules: the shop's product rules, and Add Product through the picker. */
export default function ProductRules() {
  const api = useApi();
  const toast = useToast();
  const navigate = useNavigate();
  const [pickerOpen, setPickerOpen] = useState(false);
  const [deleting, setDeleting] = useState<ProductRuleSummary | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const list = useGet('/api/product-rules', {
    pick: (reply: ProductRulesList) => reply.products.data,
  });

  const loadPage = useCallback(
    async ({ search, after, before }: PageRequest) => {
      try {
        const reply = await api.get<ShopifyProductsReply>('/api/product-rules/shopify-products', {
          query: { search: search.trim() || undefined, after, before },
        });
        return reply.products;
      } catch (err) {
        const message = messageOf(err, 'Failed to load products.');
        toast.error(message);
        throw new Error(message, { cause: err });
      }
    },
    [api, toast],
  );

  // No toast: the product's tile says the weights could not be read, with Retry.
  const loadVariants = useCallback(
    (productId: string, signal: AbortSignal) => readStoreVariants(api, productId, signal),
    [api],
  );

  // Focus as on Global Rules (issue 36, point 9): the row acted on, the first added one, the
  // heading after a deletion, the opener of a dialog closed without acting.
  const opener = useMemo(dialogOpener, []);
  const openPicker = () => {
    opener.remember();
    setPickerOpen(true);
  };
  const focusRow = (id: string) => focusWhenReady(() => firstControl(document.getElementById(id)));

  const addProducts = async (products: PickedProduct[]) => {
    try {
      const reply = await api.post<StatusReply>('/api/product-rules/add-shopify-product', {
        products,
      });
      toast.success(reply.message || 'Products added.');
      setPickerOpen(false);
      const known = new Set(rules.map((rule) => rule.id));
      focusWhenReady(() =>
        firstControl(
          [...document.querySelectorAll(`#${MAIN_ID} tr[id]`)].find((row) => !known.has(row.id)),
        ),
      );
      await list.reload();
    } catch (err) {
      toast.error(messageOf(err, 'Failed to add products.'));
    }
  };

  const toggle = async (rule: ProductRuleSummary) => {
    setBusy(rule.id);
    try {
      const reply = await api.get<StatusReply>(
        `/api/product-rules/${encodeURIComponent(rule.id)}/toggle`,
      );
      toast.success(reply.message);
      await list.reload();
    } catch (err) {
      toast.error(messageOf(err, 'Failed to update product rule'));
    } finally {
      setBusy(null);
      focusRow(rule.id);
    }
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    setBusy(deleting.id);
    try {
      const reply = await api.delete<StatusReply>(
        `/api/product-rules/${encodeURIComponent(deleting.id)}`,
      );
      toast.success(reply.message);
      setDeleting(null);
      focusWhenReady(() => pageHeading());
      await list.reload();
    } catch (err) {
      toast.error(messageOf(err, 'Failed to delete product rule'));
    } finally {
      setBusy(null);
    }
  };

  const rules = list.data ?? [];
  return (
    <Page title="Product Rules" primaryAction={{ content: 'Add Product', onAction: openPicker }}>
      <ListState
        label="Loading product rules"
        loaded={list}
        emptyHeading="No product rules yet"
        emptyText="Add a product to give it its own shipping rules."
        emptyAction={{ content: 'Add Product', onAction: openPicker }}
      >
        <Card padding="0">
          <IndexTable
            resourceName={{ singular: 'product rule', plural: 'product rules' }}
            itemCount={rules.length}
            selectable={false}
            headings={[
              { title: 'Image' },
              { title: 'Product' },
              { title: 'Variants' },
              { title: 'Status' },
              { title: 'Actions', alignment: 'end' },
            ]}
          >
            {rules.map((rule, index) => (
              <IndexTable.Row id={rule.id} key={rule.id} position={index}>
                <IndexTable.Cell>
                  <Thumbnail
                    source={rule.image || rule.metadata?.image?.src || ImageIcon}
                    alt={rule.name}
                    size="small"
                  />
                </IndexTable.Cell>
                <IndexTable.Cell>
                  <Text as="span" fontWeight="semibold">
                    {rule.name}
                  </Text>
                </IndexTable.Cell>
                <IndexTable.Cell>{variantsCovered(rule)}</IndexTable.Cell>
                <IndexTable.Cell>
                  <Badge tone={rule.active ? 'success' : undefined}>
                    {rule.active ? 'Enabled' : 'Disabled'}
                  </Badge>
                </IndexTable.Cell>
                <RowActions
                  name={rule.name}
                  actions={[
                    {
                      content: rule.active ? 'Disable' : 'Enable',
                      onAction: () => void toggle(rule),
                      loading: busy === rule.id && !deleting,
                    },
                    {
                      content: 'Edit',
                      onAction: () => navigate(`/edit-product-rule/${encodeURIComponent(rule.id)}`),
                    },
                    {
                      content: 'Delete',
                      onAction: () => {
                        opener.remember();
                        setDeleting(rule);
                      },
                      destructive: true,
                    },
                  ]}
                />
              </IndexTable.Row>
            ))}
          </IndexTable>
        </Card>
      </ListState>

      <ProductPicker
        open={pickerOpen}
        onClose={() => {
          setPickerOpen(false);
          opener.restore();
        }}
        loadPage={loadPage}
        onAdd={addProducts}
        loadVariants={loadVariants}
      />

      <ConfirmModal
        open={deleting !== null}
        onClose={() => {
          setDeleting(null);
          opener.restore();
        }}
        title="Delete product rule?"
        action="Delete"
        destructive
        busy={busy !== null && deleting !== null}
        onConfirm={confirmDelete}
      >
        <Text as="p">
          The rules of {deleting?.name ?? 'this product'} are deleted too. This cannot be undone.
        </Text>
      </ConfirmModal>
    </Page>
  );
}

/** Which variants a rule covers: every one, or those it was limited to, by title. */
export function variantsCovered(rule: ProductRuleSummary): string {
  const total = rule.variants_count;
  if (rule.variant_ids.length === 0) return total === 1 ? '1 variant' : `All ${total} variants`;
  const titles = new Map((rule.metadata?.variants ?? []).map((v) => [v.id, v.title]));
  const names = rule.variant_ids.map((id) => titles.get(id) ?? id).join(', ');
  return `${rule.variant_ids.length} of ${total} variants: ${names}`;
}
