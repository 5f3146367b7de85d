// The notification queue: one toast at a time, a new one replaces the
// previous, auto-dismiss after 5 s, swipe 50 px to dismiss. showToast() works
// from anywhere (components and the mutation cache); the Notifications
// component receives the toasts and shows them.

export const TOAST_LIMIT = 1;
export const TOAST_DURATION_MS = 5000;
export const TOAST_SWIPE_THRESHOLD_PX = 50;
/** How long a dismissed toast stays in the queue before it is removed. */
export const TOAST_REMOVE_DELAY_MS = 1_000_000;

export interface ToastInput {
  title: string;
  description?: string;
  variant?: "default" | "destructive";
}

export interface Toast extends ToastInput {
  id: number;
  open: boolean;
}

type ToastReceiver = (toast: ToastInput) => void;

let receiver: ToastReceiver | null = null;
/** Toasts shown before the receiver mounted; handed over when it does. */
const waiting: ToastInput[] = [];

/** `showToast({ title, description })`. */
export function showToast(toast: ToastInput): void {
  if (receiver) receiver(toast);
  else waiting.push(toast);
}

/** Makes `receive` the one receiver of toasts; returns the unsubscribe. */
export function receiveToasts(receive: ToastReceiver): () => void {
  receiver = receive;
  for (const toast of waiting.splice(0)) receive(toast);
  return () => {
    if (receiver === receive) receiver = null;
  };
}

/** The queue after adding a toast: the newest first, at most TOAST_LIMIT. */
export function addToast(queue: Toast[], toast: Toast): Toast[] {
  return [toast, ...queue].slice(0, TOAST_LIMIT);
}
