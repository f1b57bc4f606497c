import { useEffect, useRef } from "react";
import type { FormAnswer, FormFailure, FormSuccess } from "#app/lib/forms.ts";
import { toast, type ToastInput } from "#app/lib/ui/toast.ts";

/** What a page does with its form's answers; any toast left out is the admin screens' default. */
export interface AnswerHandlers<A extends FormAnswer> {
  successToast?: (answer: Extract<A, { ok: true }>) => ToastInput | null;
  failureToast?: (answer: FormFailure) => ToastInput | null;
  onSuccess?: (answer: Extract<A, { ok: true }>) => void;
  onFailure?: (answer: FormFailure) => void;
  /** Handle this answer as soon as it arrives, before the page's data reloads (a payment tab). */
  immediate?: (answer: A) => boolean;
}

/** The admin screens' toasts: 'Success' or 'Error' with the answer's message. */
export function defaultSuccessToast(answer: FormSuccess): ToastInput | null {
  return answer.message ? { title: "Success", description: answer.message } : null;
}

export function defaultFailureToast(answer: FormFailure): ToastInput {
  return { title: answer.title ?? "Error", description: answer.message };
}

/**
 * Turns each new answer a fetcher receives into its toast and callbacks, once: after the page's
 * data has reloaded (so the list behind a toast is already the new one), or at once when
 * `immediate` says so. The one place the submit → answer → toast cycle is written.
 */
export function useFormAnswer<A extends FormAnswer>(
  fetcher: { state: string; data: A | undefined },
  handlers: AnswerHandlers<A> = {},
): void {
  const handled = useRef<unknown>(null);
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(() => {
    const answer = fetcher.data;
    if (!answer || handled.current === answer) return;
    const h = latest.current;
    if (fetcher.state !== "idle" && !h.immediate?.(answer)) return;
    handled.current = answer;
    if (isSuccess(answer)) {
      const success = answer;
      const message = h.successToast ? h.successToast(success) : defaultSuccessToast(success);
      if (message) toast(message);
      h.onSuccess?.(success);
    } else if (!answer.ok) {
      const message = (h.failureToast ?? defaultFailureToast)(answer);
      if (message) toast({ ...message, variant: "destructive" });
      h.onFailure?.(answer);
    }
  }, [fetcher.state, fetcher.data]);
}

function isSuccess<A extends FormAnswer>(answer: A): answer is Extract<A, { ok: true }> {
  return answer.ok;
}
