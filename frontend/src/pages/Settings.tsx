import { Page } from '@shopify/polaris';

export default function Settings() {
  return <Page title="Settings" />;
}
