import { act, render, screen } from '@testing-library/react';
import { AppProvider } from '@shopify/polaris';
import en from '@shopify/polaris/locales/en.json';
import { useEffect } from 'react';
import { TOAST_DURATION_MS, ToastProvider, useToast } from './ToastProvider';

function Shows({ error, success }: { error: string; success: string }) {
  const toast = useToast();
  useEffect(() => {
    toast.error(error);
    toast.success(success);
  }, [toast, error, success]);
  return null;
}

describe('toasts', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('announces errors as alerts and successes as status, and removes both after 5000 ms', () => {
    render(
      <AppProvider i18n={en}>
        <ToastProvider>
          <Shows error="Failed to delete rule" success="Ruleset created." />
        </ToastProvider>
      </AppProvider>,
    );
    expect(screen.getByRole('alert').textContent).toContain('Failed to delete rule');
    expect(screen.getByRole('status').textContent).toContain('Ruleset created.');
    act(() => jest.advanceTimersByTime(TOAST_DURATION_MS - 1));
    expect(screen.queryByRole('alert')).not.toBeNull();
    act(() => jest.advanceTimersByTime(1));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByRole('status')).toBeNull();
  });
});
