import { Page } from '@shopify/polaris';

/** Placeholder: the "editor" helper builds this screen. */
export default function EditGlobalRule() {
  return <Page title="Global Rules" />;
}
