import { Page } from '@shopify/polaris';

export default function Dashboard() {
  return <Page title="Dashboard" />;
}
