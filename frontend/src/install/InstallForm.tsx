import { Banner, BlockStack, Button, Form, FormLayout, TextField } from '@shopify/polaris';
import { useState } from 'react';
import {
  cleanInstallInput,
  emailHint,
  installError,
  shopHint,
  type InstallInput,
} from './validation';

export interface InstallFormProps {
  initialShop?: string;
  /** An error from the server or from the reinstall/verify start, shown in the form. */
  error?: string;
  busy: boolean;
  /** Called with trimmed, valid input. */
  onInstall: (input: InstallInput) => void;
}

/**
 * Store subdomain, purchase email, Install. Hints appear under a field once it
 * was left or a submit was tried; a submit with invalid input shows the form's
 * error (`proto/src/install-form.ts`) and sends nothing.
 */
export function InstallForm({ initialShop = '', error, busy, onInstall }: InstallFormProps) {
  const [shop, setShop] = useState(initialShop);
  const [email, setEmail] = useState('');
  const [touched, setTouched] = useState({ shop: false, email: false });
  const [formError, setFormError] = useState<string | undefined>(undefined);

  const input = cleanInstallInput({ shop, email });
  const submit = () => {
    setTouched({ shop: true, email: true });
    const problem = installError(input);
    setFormError(problem);
    if (!problem) onInstall(input);
  };
  const shown = formError ?? error;

  return (
    <Form onSubmit={submit} noValidate>
      <FormLayout>
        {shown ? (
          <div role="alert" data-testid="install-error">
            <Banner tone="critical">
              <p>{shown}</p>
            </Banner>
          </div>
        ) : null}
        <TextField
          label="Store subdomain"
          name="shop"
          value={shop}
          onChange={(value) => {
            setShop(value);
            setFormError(undefined);
          }}
          onBlur={() => setTouched((t) => ({ ...t, shop: true }))}
          placeholder="your-store.myshopify.com"
          helpText="Your store's address in Shopify, ending with .myshopify.com"
          error={touched.shop ? shopHint(input.shop) : undefined}
          autoComplete="off"
          spellCheck={false}
          requiredIndicator
        />
        <TextField
          label="Purchase email"
          name="email"
          type="email"
          value={email}
          onChange={(value) => {
            setEmail(value);
            setFormError(undefined);
          }}
          onBlur={() => setTouched((t) => ({ ...t, email: true }))}
          placeholder="you@example.com"
          helpText="The email address you used to buy Ratesmith"
          error={touched.email ? emailHint(input.email) : undefined}
          autoComplete="email"
          requiredIndicator
        />
        <BlockStack inlineAlign="start">
          <Button submit variant="primary" loading={busy} disabled={busy}>
            Install
          </Button>
        </BlockStack>
      </FormLayout>
    </Form>
  );
}
