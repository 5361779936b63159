import { useCallback } from 'react';
import { useParams } from 'react-router-dom';
import { useApi, type FiltersSavedReply, type ProductRuleFiltersReply } from '../api';
import type { FilterDraft } from '@ratesmith/contracts/filters';
import { RulesEditorPage } from '../editor/RulesEditorPage';
import { VersionsModal } from '../versions/VersionsModal';
import { LazyRatePreview, previewBlockedBy } from '../preview/LazyRatePreview';
import { usePreview } from '../preview/usePreview';

/** /edit-product-rule/{id}: the same filter editor at product scope, with the rate preview below. */
export default function EditProductRule() {
  const { id = '' } = useParams();
  const api = useApi();
  const path = encodeURIComponent(id);

  const load = useCallback(
    async (signal: AbortSignal) => {
      const reply = await api.get<ProductRuleFiltersReply>(`/api/product-rules/${path}/rules`, {
        signal,
      });
      return { name: reply.productRule?.name ?? '', rules: reply.rules ?? [] };
    },
    [api, path],
  );

  const save = useCallback(
    (rules: FilterDraft[]) =>
      api.post<FiltersSavedReply>(`/api/product-rules/update/${path}`, { rules }),
    [api, path],
  );

  const { products, requestPreview } = usePreview();

  return (
    <RulesEditorPage
      scope="product"
      title={(name) =>
        name === undefined ? 'Product Rules' : `Product Rules: ${name || 'Untitled product'}`
      }
      backUrl="/product-rules"
      load={load}
      save={save}
      analyticsOwner={{ owner: 'product_rule', id }}
      versions={(dialog) => (
        <VersionsModal subjectPath={`/api/product-rules/${path}`} noun="product rule" {...dialog} />
      )}
      below={(draft) => (
        <LazyRatePreview
          requestPreview={requestPreview}
          draft={{ productRuleId: id, rules: draft.wire }}
          blockedReason={previewBlockedBy(draft.errors)}
          products={products}
        />
      )}
    />
  );
}
