import { Page } from '@shopify/polaris';

export default function Install() {
  return <Page title="Install" />;
}
