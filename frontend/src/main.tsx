import '@shopify/polaris/build/esm/styles.css';
import './app.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { AppProviders } from './AppProviders';
import { routes } from './routes';
import { shareMediaQueries } from './shell/shared-media-queries';
import { isSampled } from './vitals/sampling';
import { sendWebVitals } from './vitals/send';

shareMediaQueries();
const router = createBrowserRouter(routes);
// Only a sampled page view loads the web-vitals code, after the first render has started.
if (isSampled())
  import('./vitals/report')
    .then(({ reportWebVitals }) => reportWebVitals(routes, sendWebVitals))
    .catch(() => undefined);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
