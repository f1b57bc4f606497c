import { Trash2 } from "lucide-react";
import { useRef, useState } from "react";
import { Form, Link, useFetcher } from "react-router";
import { useFormAnswer } from "#app/components/forms/use-form-answer.ts";
import { ConfirmAction } from "#app/components/admin/confirm-action.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import type { FormAnswer } from "#app/lib/forms.ts";
import { privacySearchHref } from "#app/lib/admin/privacy.ts";

/**
 * Erase, asking first (decision 0020). With JavaScript: the alert dialog names what will happen,
 * then the post goes through a fetcher and its answer is the toast. Without: the button is a GET
 * to `?email=…&confirm=erase`, where the same question is a panel with a plain POST form.
 */

export function eraseQuestion(email: string): string {
  return `Erase the personal data of ${email}?`;
}

export function EraseButton({ email, detail }: { email: string; detail: string }) {
  const fetcher = useFetcher<FormAnswer>();
  // Shown as soon as it arrives: the reloaded page ("Nothing is held") no longer has this button.
  useFormAnswer(fetcher, { immediate: () => true });
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const busy = fetcher.state !== "idle";
  return (
    <>
      <Form
        method="get"
        onSubmit={(event) => {
          event.preventDefault();
          setOpen(true);
        }}
      >
        <input type="hidden" name="email" value={email} />
        <input type="hidden" name="confirm" value="erase" />
        <Button ref={button} type="submit" variant="destructive" disabled={busy}>
          <Trash2 aria-hidden />
          Erase
        </Button>
      </Form>
      <ConfirmAction
        open={open}
        onOpenChange={setOpen}
        onCloseAutoFocus={(event) => {
          // No Radix trigger here: focus goes back to the button by hand.
          event.preventDefault();
          button.current?.focus();
        }}
        question={eraseQuestion(email)}
        detail={<>{detail} This cannot be undone.</>}
        cancelLabel="Keep"
        confirmLabel="Erase"
        destructive
        onConfirm={() => fetcher.submit({ intent: "erase", email }, { method: "post" })}
      />
    </>
  );
}

/** The question as a panel, for the page reached without JavaScript (`confirm=erase`). */
export function EraseConfirmation({ email, detail }: { email: string; detail: string }) {
  return (
    <Card className="border-destructive p-4" role="region" aria-labelledby="erase-question">
      <h2 id="erase-question" className="text-lg font-semibold break-all">
        {eraseQuestion(email)}
      </h2>
      <p className="mt-1 text-sm">{detail} This cannot be undone.</p>
      <Form method="post" action={privacySearchHref(email)} className="mt-3 flex gap-2">
        <input type="hidden" name="intent" value="erase" />
        <input type="hidden" name="email" value={email} />
        <Button type="submit" variant="destructive">
          <Trash2 aria-hidden />
          Erase
        </Button>
        <Button asChild variant="outline">
          <Link to={privacySearchHref(email)}>Keep</Link>
        </Button>
      </Form>
    </Card>
  );
}
