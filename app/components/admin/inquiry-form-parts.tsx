import type { FormAnswer } from "#app/lib/forms.ts";

/** What the enquiry page's forms share: a field's message, and a no-JavaScript answer's echo. */

export function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <p id={id} role="alert" className="text-sm text-destructive">
      {message}
    </p>
  ) : null;
}

/** The answer to this form's post without JavaScript: its field messages and what was typed. */
export function echoOf(answer: FormAnswer | undefined, form: string) {
  if (!answer || answer.ok || answer.form !== form) return null;
  return { errors: answer.fieldErrors, values: answer.values ?? {}, message: answer.message };
}
