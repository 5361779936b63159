import { Banner, BlockStack, Box, Button, Page } from '@shopify/polaris';
import { isRouteErrorResponse, useNavigate, useRouteError } from 'react-router-dom';

/** The error boundary of a route tree: a broken screen never blanks the whole admin. */
export function RouteError() {
  const error = useRouteError();
  const navigate = useNavigate();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <Page title={notFound ? 'Page not found' : 'Something went wrong'}>
      <Box paddingBlockEnd="400">
        <BlockStack gap="400">
          <Banner tone={notFound ? 'warning' : 'critical'}>
            <p>
              {notFound
                ? 'This page does not exist.'
                : 'This screen could not be shown. Reload the page, or go back to the dashboard.'}
            </p>
          </Banner>
          <div>
            <Button onClick={() => navigate('/')}>Back to the dashboard</Button>
          </div>
        </BlockStack>
      </Box>
    </Page>
  );
}
