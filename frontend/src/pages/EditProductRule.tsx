import { useParams } from 'react-router-dom';
import { RulesEditorPage } from '../editor/RulesEditorPage';
import { useFilterListApi } from '../editor/useFilterListApi';
import { VersionsModal } from '../versions/VersionsModal';
import { LazyRatePreview, previewBlockedBy } from '../preview/LazyRatePreview';
import { usePreview } from '../preview/usePreview';

/** /edit-product-rule/{id}: the same filter editor at product scope, with the rate preview below. */
export default function EditProductRule() {
  const { id = '' } = useParams();
  const { load, save, subjectPath } = useFilterListApi('product', id);

  const preview = usePreview();

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
        <VersionsModal subjectPath={subjectPath} noun="product rule" {...dialog} />
      )}
      below={(draft) => (
        <LazyRatePreview
          {...preview}
          draft={{ productRuleId: id, rules: draft.wire }}
          blockedReason={previewBlockedBy(draft.errors)}
        />
      )}
    />
  );
}
