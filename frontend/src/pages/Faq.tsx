import { Page } from '@shopify/polaris';

export default function Faq() {
  return <Page title="FAQ" />;
}
