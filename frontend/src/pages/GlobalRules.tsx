import { Page } from '@shopify/polaris';

export default function GlobalRules() {
  return <Page title="Global Rules" />;
}
