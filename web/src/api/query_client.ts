// The query client of the web app. Queries fetch once and keep their answer
// (no refetch on focus, never stale, no retries) unless a query asks for
// polling or retries itself. Mutation toasts live here: a mutation names its
// toasts in `meta` and the mutation cache shows them.

import { MutationCache, QueryClient } from "@tanstack/react-query";
import { showToast, type ToastInput } from "../lib/toast.ts";

/** A toast, or how to make one from a mutation's answer (null: no toast). */
type ToastFrom<T> = ToastInput | ((value: T) => ToastInput | null);

/** The `meta` of a mutation: the toasts to show when it ends. */
export type MutationToasts<TData = never> = {
  successToast?: ToastFrom<TData>;
  errorToast?: ToastFrom<Error>;
};

declare module "@tanstack/react-query" {
  interface Register {
    mutationMeta: MutationToasts;
  }
}

function toastFrom<T>(toast: ToastFrom<T> | undefined, value: T): void {
  const input = typeof toast === "function" ? toast(value) : toast;
  if (input) showToast(input);
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    mutationCache: new MutationCache({
      onSuccess: (data, _variables, _result, mutation) =>
        toastFrom(mutation.meta?.successToast, data as never),
      onError: (error, _variables, _result, mutation) =>
        toastFrom(mutation.meta?.errorToast, error),
    }),
    defaultOptions: {
      queries: {
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: Infinity,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
}
