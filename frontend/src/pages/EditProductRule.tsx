import { Page } from '@shopify/polaris';

/** Placeholder: the "editor" helper builds this screen. */
export default function EditProductRule() {
  return <Page title="Product Rule" />;
}
