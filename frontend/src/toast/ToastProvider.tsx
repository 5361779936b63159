import { Button, InlineStack, Text } from '@shopify/polaris';
import { XIcon } from '@shopify/polaris-icons';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type ReactNode,
} from 'react';

export type ToastTone = 'success' | 'error' | 'info';

/** Toasts stay 5000 ms unless told otherwise (as in the original app). */
export const TOAST_DURATION_MS = 5000;

export interface ToastOptions {
  message: string;
  tone?: ToastTone;
  durationMs?: number;
}

export interface Toasts {
  show(options: ToastOptions): void;
  success(message: string): void;
  error(message: string): void;
  info(message: string): void;
}

interface ShownToast extends Required<ToastOptions> {
  id: number;
}

const ToastContext = createContext<Toasts | undefined>(undefined);

/**
 * One toast mechanism for the whole admin: a stack at the top right (Polaris'
 * own Toast sits at the bottom centre and needs a Frame), announced to screen
 * readers (errors as alerts), each gone after its duration or when dismissed.
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<ShownToast[]>([]);
  const nextId = useRef(1);

  const dismiss = useCallback((id: number) => {
    setToasts((list) => list.filter((t) => t.id !== id));
  }, []);

  const api = useMemo<Toasts>(() => {
    const show = ({ message, tone = 'info', durationMs = TOAST_DURATION_MS }: ToastOptions) => {
      const id = nextId.current++;
      setToasts((list) => [...list, { id, message, tone, durationMs }]);
    };
    return {
      show,
      success: (message) => show({ message, tone: 'success' }),
      error: (message) => show({ message, tone: 'error' }),
      info: (message) => show({ message, tone: 'info' }),
    };
  }, []);

  return (
    <ToastContext.Provider value={api}>
      {children}
      <div style={regionStyle} data-testid="toasts">
        {toasts.map((toast) => (
          <ToastItem key={toast.id} toast={toast} onDismiss={dismiss} />
        ))}
      </div>
    </ToastContext.Provider>
  );
}

function ToastItem({ toast, onDismiss }: { toast: ShownToast; onDismiss: (id: number) => void }) {
  useEffect(() => {
    const timer = setTimeout(() => onDismiss(toast.id), toast.durationMs);
    return () => clearTimeout(timer);
  }, [toast.id, toast.durationMs, onDismiss]);

  return (
    <div
      role={toast.tone === 'error' ? 'alert' : 'status'}
      className={`rs-toast rs-toast--${toast.tone}`}
      style={{ ...toastStyle, ...toneStyles[toast.tone] }}
    >
      <InlineStack gap="200" wrap={false} blockAlign="center" align="space-between">
        <Text as="span" variant="bodyMd" fontWeight="medium">
          {toast.message}
        </Text>
        <Button
          variant="monochromePlain"
          icon={XIcon}
          accessibilityLabel="Dismiss notification"
          onClick={() => onDismiss(toast.id)}
        />
      </InlineStack>
    </div>
  );
}

/** The toasts of the surrounding ToastProvider. */
export function useToast(): Toasts {
  const toasts = useContext(ToastContext);
  if (!toasts) throw new Error('useToast() needs a <ToastProvider>.');
  return toasts;
}

const regionStyle: CSSProperties = {
  position: 'fixed',
  top: 16,
  right: 16,
  zIndex: 600,
  display: 'flex',
  flexDirection: 'column',
  gap: 8,
  maxWidth: 'min(420px, calc(100vw - 32px))',
};

const toastStyle: CSSProperties = {
  padding: '10px 12px 10px 16px',
  borderRadius: 'var(--p-border-radius-300, 12px)',
  boxShadow: 'var(--p-shadow-600, 0 8px 16px rgba(0,0,0,0.25))',
  minWidth: 260,
};

const toneStyles: Record<ToastTone, CSSProperties> = {
  success: { background: 'var(--p-color-bg-inverse, #303030)', color: '#fff' },
  info: { background: 'var(--p-color-bg-inverse, #303030)', color: '#fff' },
  error: { background: 'var(--p-color-bg-fill-critical, #c70a24)', color: '#fff' },
};
