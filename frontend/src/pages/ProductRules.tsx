import { Page } from '@shopify/polaris';

/** Placeholder: the "editor" helper builds this screen. */
export default function ProductRules() {
  return <Page title="Product Rules" />;
}
