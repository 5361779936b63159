import { AppProvider } from '@shopify/polaris';
import en from '@shopify/polaris/locales/en.json';
import type { AnchorHTMLAttributes, ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { ToastProvider } from './toast';

/** What Polaris passes to its link component (its own type is not exported). */
type LinkLikeComponentProps = AnchorHTMLAttributes<HTMLAnchorElement> & {
  url: string;
  external?: boolean;
  children?: ReactNode;
};

/** Polaris' `url` props navigate inside the app (no full page loads) unless external. */
function RouterLink({ url, external, children, ...rest }: LinkLikeComponentProps) {
  if (external || /^[a-z]+:/i.test(url)) {
    return (
      <a href={url} target="_blank" rel="noopener noreferrer" {...rest}>
        {children}
      </a>
    );
  }
  return (
    <Link to={url} {...rest}>
      {children}
    </Link>
  );
}

/** The one Polaris AppProvider, and the toasts. Tests wrap screens in this too. */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <AppProvider i18n={en} linkComponent={RouterLink}>
      <ToastProvider>{children}</ToastProvider>
    </AppProvider>
  );
}
