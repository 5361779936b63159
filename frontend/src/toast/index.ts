export { TOAST_DURATION_MS, ToastProvider, useToast } from './ToastProvider';
export type { ToastOptions, Toasts, ToastTone } from './ToastProvider';
