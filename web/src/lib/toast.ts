// The notification queue of SPEC.md section 4: one toast at a time, a new one
// replaces the previous, auto-dismiss after 5 s, swipe 50 px to dismiss.

import { createContext, useContext } from "react";

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

export type ToastFn = (toast: ToastInput) => void;

export const ToastContext = createContext<ToastFn>(() => {});

/** `const toast = useToast(); toast({ title, description })`. */
export function useToast(): ToastFn {
  return useContext(ToastContext);
}

/** The queue after adding a toast: the newest first, at most TOAST_LIMIT. */
export function addToast(queue: Toast[], toast: Toast): Toast[] {
  return [toast, ...queue].slice(0, TOAST_LIMIT);
}
