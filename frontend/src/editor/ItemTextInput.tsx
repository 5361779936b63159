import { Autocomplete, TextField } from '@shopify/polaris';
import { useEffect, useMemo, useRef, useState } from 'react';
import { LIMITS, type ItemFigure } from '@ratesmith/contracts/filters';
import { useOptionalApi, type ProductTextKind, type ProductTextsReply } from '../api';

/** Which of the shop's lists each item field picks from; SKUs are typed. */
const KIND_OF: Partial<Record<ItemFigure, ProductTextKind>> = {
  item_vendor: 'vendor',
  item_product_type: 'type',
  item_product_tag: 'tag',
};

/** What each product text looks like. */
const PLACEHOLDERS: Record<ItemFigure, string> = {
  item_vendor: 'Vendor, e.g. Acme',
  item_product_type: 'Product type, e.g. Boots',
  item_product_tag: 'Tag, e.g. oversize',
  item_sku: 'SKU, e.g. BOOT-42',
};

const NAMES: Record<ProductTextKind, string> = {
  vendor: 'vendor',
  type: 'product type',
  tag: 'tag',
};

/** Keystrokes within this long ask Shopify's lists once. */
const SEARCH_DELAY_MS = 200;

export interface ItemTextInputProps {
  figure: ItemFigure;
  label: string;
  value: string;
  onChange(value: string): void;
}

/**
 * An item condition's text (docs/rates.md, "Item conditions"). Vendors, types
 * and tags offer the shop's own values from Shopify as the merchant types; a
 * value no product has yet is kept as typed, with a hint that says so. Texts
 * are compared case-blind, so the hint is too.
 */
export function ItemTextInput({ figure, label, value, onChange }: ItemTextInputProps) {
  const api = useOptionalApi();
  const kind = KIND_OF[figure];
  const [found, setFound] = useState<ProductTextsReply | null>(null);
  const [loading, setLoading] = useState(false);
  const listed = useRef(false);
  const options = useMemo(
    () => (found?.values ?? []).map((v) => ({ value: v, label: v })),
    [found],
  );

  useEffect(() => {
    if (!api || !kind) return;
    const controller = new AbortController();
    const timer = setTimeout(
      () => {
        setLoading(true);
        const search = encodeURIComponent(value.trim());
        api
          .get<ProductTextsReply>(`/api/product-texts?kind=${kind}&search=${search}`, {
            signal: controller.signal,
          })
          .then((reply) => {
            listed.current = true;
            setFound(reply);
          })
          // No list (Shopify busy, offline): the field still takes what is typed.
          .catch(() => setFound(null))
          .finally(() => !controller.signal.aborted && setLoading(false));
        // The first list at once, so the picker has values to open with.
      },
      listed.current ? SEARCH_DELAY_MS : 0,
    );
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [api, kind, value]);

  // The same box either way: plain for a SKU, with the shop's values for the others.
  const box = {
    label,
    labelHidden: true,
    placeholder: PLACEHOLDERS[figure],
    autoComplete: 'off',
    maxLength: LIMITS.itemText,
    value,
    onChange,
  };
  if (!kind) return <TextField {...box} />;
  const typed = value.trim().toLowerCase();
  // Suggestions that contain the text are hint enough; none at all, in a whole list, is news.
  const hint =
    typed && found?.complete && !loading && found.values.length === 0
      ? `No product has this ${NAMES[kind]} yet: the rule keeps it and matches once one does.`
      : undefined;
  return (
    <Autocomplete
      options={options}
      selected={value ? [value] : []}
      onSelect={(selected) => onChange(selected[0] ?? value)}
      loading={loading}
      // No empty state: without values the list stays closed, and the hint below says why.
      textField={<Autocomplete.TextField {...box} helpText={hint} />}
    />
  );
}
