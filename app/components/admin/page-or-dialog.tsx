import { Fragment, useRef, useState, type ReactNode } from "react";
import { Pencil } from "lucide-react";
import { Link, useFetcher } from "react-router";
import { ConfirmAction } from "#app/components/admin/confirm-action.tsx";
import { useFormAnswer } from "#app/components/forms/use-form-answer.ts";
import { Button } from "#app/components/ui/button.tsx";
import { Dialog } from "#app/components/ui/dialog.tsx";
import type { FormAnswer } from "#app/lib/forms.ts";

/**
 * The frame of an admin screen that works with and without JavaScript (Dates, Trainers): with
 * it, adding and editing open one dialog and a destructive action asks in another; without it,
 * the URL asks for the form or the question (`?new`, `?edit=<id>`, `?cancel=<id>`…), they show on
 * the page, and each post answers on the page until it succeeds.
 */

/** One dialog for adding and editing: a fresh form each time it opens. */
export function useEditDialog<Item>() {
  const [editing, setEditing] = useState<{ key: number; item: Item | null } | null>(null);
  const opened = useRef(0);
  return {
    editing,
    open: (item: Item | null) => setEditing({ key: ++opened.current, item }),
    close: () => setEditing(null),
  };
}

/** The dialog `useEditDialog` opens, drawing the form for its item (null: a new one). */
export function EditDialog<Item>({
  dialog,
  children,
}: {
  dialog: ReturnType<typeof useEditDialog<Item>>;
  children: (item: Item | null, close: () => void) => ReactNode;
}) {
  const { editing, close } = dialog;
  return (
    <Dialog open={editing !== null} onOpenChange={(isOpen) => !isOpen && close()}>
      {editing ? <Fragment key={editing.key}>{children(editing.item, close)}</Fragment> : null}
    </Dialog>
  );
}

/**
 * The screen's destructive action posted from a confirmed dialog: page-level, not per row (the
 * row is gone once the list reloads; its toast must still show). `busy(id)` while it runs.
 */
export function useRowAction(key: string) {
  const fetcher = useFetcher<FormAnswer>({ key });
  useFormAnswer(fetcher);
  return {
    submit: (intent: string, id: string) => fetcher.submit({ intent, id }, { method: "post" }),
    busy: (id: string) => fetcher.state !== "idle" && fetcher.formData?.get("id") === id,
  };
}

/**
 * Without JavaScript: the form the URL asks for (`asked`), on the page until a save succeeds
 * (with the refused post's answer), the line telling what a post did, and whether the
 * destructive action (`form` of its answers) has just succeeded.
 */
export function pageAnswerState<Item>(
  answer: FormAnswer | undefined,
  asked: { editing: Item | null; adding: boolean },
  destructiveForm: string,
) {
  const saved = answer?.ok === true && answer.form === "save";
  return {
    pageForm:
      !saved && (asked.editing || asked.adding)
        ? { item: asked.editing, answer: answer?.form === "save" ? answer : undefined }
        : null,
    pageNotice:
      answer && (answer.ok || answer.form === destructiveForm) ? (answer.message ?? null) : null,
    destroyed: answer?.ok === true && answer.form === destructiveForm,
  };
}

/** What a post without JavaScript did, with a link back to the plain list. */
export function PageNotice({ notice, listHref }: { notice: string | null; listHref: string }) {
  if (!notice) return null;
  return (
    <p role="status" className="mb-4 rounded-md border border-border bg-card p-3 text-sm">
      {notice}{" "}
      <Link to={listHref} className="text-primary underline">
        Dismiss
      </Link>
    </p>
  );
}

/** The add/edit form on the page (without JavaScript), under its heading. */
export function PageFormSection({
  id,
  title,
  children,
}: {
  id: string;
  title: string;
  children: ReactNode;
}) {
  return (
    <section
      id={id}
      aria-labelledby={`${id}-heading`}
      className="mb-6 rounded-lg border border-border bg-card p-4"
    >
      <h2 id={`${id}-heading`} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** A row's Edit: opens the dialog with JavaScript, else the page's `?edit=<id>`. */
export function EditAction({
  hydrated,
  label,
  onEdit,
  href,
}: {
  hydrated: boolean;
  /** What is edited, for the button's accessible name ('Edit <label>'). */
  label: string;
  onEdit: () => void;
  href: string;
}) {
  return hydrated ? (
    <Button
      type="button"
      variant="ghost"
      size="icon"
      onClick={onEdit}
      aria-label={`Edit ${label}`}
      title="Edit"
    >
      <Pencil aria-hidden />
    </Button>
  ) : (
    <Button asChild variant="ghost" size="icon">
      <Link to={href} aria-label={`Edit ${label}`} title="Edit">
        <Pencil aria-hidden />
      </Link>
    </Button>
  );
}

/**
 * A row's destructive action as an icon: asked in a dialog and posted (`confirm`), or a link to
 * the page that asks (`href`) — without JavaScript, or when the question needs more than yes/no.
 */
export function DestructiveAction({
  icon,
  label,
  title,
  href,
  confirm,
}: {
  icon: ReactNode;
  /** The accessible name, e.g. 'Delete Jane Doe'. */
  label: string;
  title: string;
  href: string;
  confirm: {
    question: string;
    detail: ReactNode;
    confirmLabel: string;
    cancelLabel?: string;
    busy: boolean;
    onConfirm: () => void;
  } | null;
}) {
  if (!confirm) {
    return (
      <Button asChild variant="ghost" size="icon" className="text-destructive">
        <Link to={href} aria-label={label} title={title}>
          {icon}
        </Link>
      </Button>
    );
  }
  return (
    <ConfirmAction
      trigger={
        <Button
          type="button"
          variant="ghost"
          size="icon"
          aria-label={label}
          title={title}
          disabled={confirm.busy}
          className="text-destructive hover:text-destructive"
        >
          {icon}
        </Button>
      }
      question={confirm.question}
      detail={confirm.detail}
      cancelLabel={confirm.cancelLabel}
      confirmLabel={confirm.confirmLabel}
      destructive
      onConfirm={confirm.onConfirm}
    />
  );
}
