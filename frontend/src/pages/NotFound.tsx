import { Banner, Page } from '@shopify/polaris';

export default function NotFound() {
  return (
    <Page title="Page not found" backAction={{ content: 'Dashboard', url: '/' }}>
      <Banner tone="warning">
        <p>This page does not exist.</p>
      </Banner>
    </Page>
  );
}
