import { Fragment, useId, useRef, useState, type FormEvent, type ReactNode } from "react";
import { Pencil, Plus } from "lucide-react";
import { Link, useFetcher } from "react-router";
import type { $ZodObject, input } from "zod/v4/core";
import { AdminPageHeader, BackToDashboard } from "#app/components/admin/admin-ui.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { DIALOG_FORM, DialogFormBody, DialogPanel } from "#app/components/ui/dialog.tsx";
import { EditDialog, useEditDialog } from "#app/components/admin/page-or-dialog.tsx";
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "#app/components/ui/table.tsx";
import { useFormAnswer } from "#app/components/forms/use-form-answer.ts";
import {
  focusFirstInvalid,
  checkBeforePost,
  type FieldErrors,
  type FormAnswer,
} from "#app/lib/forms.ts";
import { ConfirmDelete } from "#app/components/admin/confirm-action.tsx";
import { cn } from "#app/lib/ui/cn.ts";
import { describe } from "#app/components/forms/fields.tsx";

/**
 * The frame the course, category and partner screens share: back link, title and
 * Add button, the list with its count or empty state, an edit button and a confirmed delete per
 * row, one dialog for adding and editing, and the spec's toasts for loading, saving and deleting.
 * Each screen supplies its columns, its cells and its form.
 */
export function CataloguePage<Item extends { id: string }>(props: {
  /** The thing listed, capitalised: "Course", "Category", "Partner". */
  noun: string;
  /** Its plural, for the list heading: "Courses". */
  plural: string;
  title: string;
  description: string;
  items: readonly Item[];
  emptyText: string;
  /** The spec's confirmation text for a delete. */
  deleteQuestion: string;
  /** Buttons shown before the Add button. */
  links?: ReactNode;
  /** The header cells before "Actions". */
  columns: ReactNode;
  /** A row's cells before its actions. */
  cells: (item: Item) => ReactNode;
  /**
   * The same item as a card, for screens narrower than 768 px (the table shows from 768 px up):
   * its name first, then what the row's cells say. The frame adds the actions.
   */
  card: (item: Item) => ReactNode;
  /** How a row is named to assistive technology ("Edit …", "Delete …"). */
  label: (item: Item) => string;
  rowAttributes?: (item: Item) => Record<`data-${string}`, string>;
  /** Actions between Edit and Delete (a course's external link). */
  moreActions?: (item: Item) => ReactNode;
  /** The add/edit form for an item, or for a new one (null). */
  form: (item: Item | null, onSaved: () => void) => ReactNode;
}) {
  const { noun, items } = props;
  const entity = noun.toLowerCase();
  // Each opening of the dialog gets a fresh form (reset on Add).
  const dialog = useEditDialog<Item>();
  const { open } = dialog;
  // Page-level, not per row: the row is gone once the list reloads, its toast must still show.
  const deleter = useFetcher<FormAnswer>({ key: `${entity}-delete` });
  useFormAnswer(deleter);

  const isDeleting = (item: Item) =>
    deleter.state !== "idle" && deleter.formData?.get("id") === item.id;
  /** Edit, the screen's own (a course's external link), and a delete that names the item. */
  const actions = (item: Item, deleting: boolean) => {
    const label = props.label(item);
    return (
      <>
        <Button
          type="button"
          variant="ghost"
          size="icon"
          onClick={() => open(item)}
          aria-label={`Edit ${label}`}
          title="Edit"
        >
          <Pencil aria-hidden />
        </Button>
        {props.moreActions?.(item)}
        <ConfirmDelete
          question={props.deleteQuestion}
          subject={
            <>
              The {entity} <strong className="text-foreground">‘{label}’</strong>
            </>
          }
          label={`Delete ${label}`}
          disabled={deleting}
          onConfirm={() => deleter.submit({ intent: "delete", id: item.id }, { method: "post" })}
        />
      </>
    );
  };

  const headingId = `${props.plural.toLowerCase()}-heading`;
  return (
    <div>
      <div>
        <BackToDashboard />
        <AdminPageHeader
          title={props.title}
          description={props.description}
          actions={
            <>
              {props.links}
              <Button type="button" onClick={() => open(null)}>
                <Plus aria-hidden /> Add {noun}
              </Button>
            </>
          }
        />
      </div>

      <section aria-labelledby={headingId} className="rounded-lg border border-border bg-card">
        <h2 id={headingId} className="p-4 text-lg font-semibold">
          {props.plural} ({items.length})
        </h2>
        {items.length === 0 ? (
          <p className="px-4 pb-6 text-sm text-muted-foreground">{props.emptyText}</p>
        ) : (
          <>
            {/* Below 768 px: one card per item, the same actions (no sideways scrolling). */}
            <ul className="divide-y divide-border border-t border-border md:hidden">
              {items.map((item) => {
                const deleting = isDeleting(item);
                return (
                  <li
                    key={item.id}
                    aria-busy={deleting || undefined}
                    className={cn("grid gap-3 p-4", deleting && "opacity-50")}
                  >
                    <div className="min-w-0 break-words">{props.card(item)}</div>
                    <div className="-mb-1 flex flex-wrap justify-end gap-1">
                      {actions(item, deleting)}
                    </div>
                  </li>
                );
              })}
            </ul>
            <Table wrapperClassName="hidden md:block">
              <TableHeader>
                <TableRow>
                  {props.columns}
                  <TableHead className="text-right">Actions</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {items.map((item) => {
                  const deleting = isDeleting(item);
                  return (
                    <TableRow
                      key={item.id}
                      {...props.rowAttributes?.(item)}
                      aria-busy={deleting || undefined}
                      className={deleting ? "opacity-50" : undefined}
                    >
                      {props.cells(item)}
                      <TableCell>
                        <div className="flex justify-end gap-1">{actions(item, deleting)}</div>
                      </TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          </>
        )}
      </section>

      <EditDialog dialog={dialog}>{props.form}</EditDialog>
    </div>
  );
}

/**
 * The state of a catalogue add/edit form: the same schema checks it in the browser before it
 * is sent and on the server (`adminFormAction` with the `catalogueForm` intents); the server's
 * answer becomes a toast, and its field messages are shown and the first one focused.
 * `extraErrors` adds browser-only checks (number inputs whose text the browser could not read).
 */
export function useCatalogueForm<Schema extends $ZodObject>(options: {
  schema: Schema;
  onSaved: () => void;
  extraErrors?: (form: HTMLFormElement) => FieldErrors;
  /** On the page (without JavaScript): the server's answer to the last post, if refused. */
  pageAnswer?: FormAnswer;
}) {
  const fetcher = useFetcher<FormAnswer>();
  const formRef = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const uid = useId();
  const id = (name: Extract<keyof input<Schema>, string>) => `${uid}-${name}`;
  useFormAnswer(fetcher, {
    onSuccess: options.onSaved,
    onFailure: (result) => {
      setErrors(result.fieldErrors);
      focusFirstInvalid(formRef.current, result.fieldErrors);
    },
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const found = checkBeforePost(
      event,
      options.schema,
      options.extraErrors?.(event.currentTarget),
    );
    setErrors(found ?? {});
  };

  const failed = options.pageAnswer && !options.pageAnswer.ok ? options.pageAnswer : undefined;
  // The page's answer until the browser has checked or posted the form itself.
  const shown: FieldErrors =
    Object.keys(errors).length > 0 || fetcher.data ? errors : (failed?.fieldErrors ?? {});

  return {
    fetcher,
    formRef,
    errors: shown,
    id,
    /** The aria attributes of a field (`hasHint` when the field shows a hint). */
    field: (name: Extract<keyof input<Schema>, string>, hasHint = false) =>
      describe(id(name), shown[name], hasHint),
    saving: fetcher.state !== "idle",
    onSubmit,
    /** The refused page post's answer (its message and what was typed), if any. */
    failed,
    /** A field's first value: what a refused page post typed, else what is stored. */
    initial: (name: string, stored: string | null) => failed?.values?.[name] ?? stored ?? "",
  };
}

/**
 * A catalogue form where the screen draws it: in its dialog (`CatalogueFormDialog`) with
 * JavaScript, or on the page without it, posting the same fields, with the refused post's
 * message above them and a Cancel link back to the list.
 */
export function CatalogueForm(
  props: Parameters<typeof CatalogueFormDialog>[0] & {
    form: Pick<ReturnType<typeof useCatalogueForm>, "failed">;
    mode: "dialog" | "page";
    /** Where Cancel leads on the page. */
    listHref?: string;
  },
) {
  const { form, mode, item, noun, multipart = false, listHref, children } = props;
  if (mode === "dialog") return <CatalogueFormDialog {...props} />;
  const { fetcher, saving } = form;
  return (
    <fetcher.Form
      ref={form.formRef}
      method="post"
      encType={multipart ? "multipart/form-data" : undefined}
      noValidate
      onSubmit={form.onSubmit}
      className="mt-4 grid gap-4"
    >
      <input type="hidden" name="intent" value="save" />
      {item ? <input type="hidden" name="id" value={item.id} /> : null}
      {form.failed?.message ? (
        <p role="alert" className="text-sm text-destructive">
          {form.failed.message}
        </p>
      ) : null}
      <fieldset disabled={saving} className="grid min-w-0 gap-4">
        {children}
      </fieldset>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={saving}>
          {saving ? "Saving..." : item ? `Update ${noun}` : `Create ${noun}`}
        </Button>
        {listHref ? (
          <Button asChild variant="outline">
            <Link to={listHref}>Cancel</Link>
          </Button>
        ) : null}
      </div>
    </fetcher.Form>
  );
}

/**
 * The add/edit dialog around a catalogue form: title and description, the form posting
 * `intent=save` (and the item's `id` when editing), its fields disabled while saving, and the
 * Create/Update button.
 */
export function CatalogueFormDialog({
  form,
  noun,
  item,
  title,
  description,
  className,
  multipart = false,
  children,
}: {
  form: Pick<ReturnType<typeof useCatalogueForm>, "fetcher" | "formRef" | "saving" | "onSubmit">;
  /** The thing saved, capitalised: "Course". */
  noun: string;
  /** The item edited, or null when adding one. */
  item: { id: string } | null;
  title: string;
  description: ReactNode;
  className?: string;
  /** For forms with an image input. */
  multipart?: boolean;
  children: ReactNode;
}) {
  const { fetcher, saving } = form;
  return (
    <DialogPanel className={className} title={title} description={description}>
      <fetcher.Form
        ref={form.formRef}
        method="post"
        encType={multipart ? "multipart/form-data" : undefined}
        noValidate
        className={DIALOG_FORM}
        onSubmit={form.onSubmit}
      >
        <input type="hidden" name="intent" value="save" />
        {item ? <input type="hidden" name="id" value={item.id} /> : null}
        {/* The fields scroll; the title above and the buttons below stay in view. */}
        <DialogFormBody
          busy={saving}
          submit={
            <Button type="submit" disabled={saving}>
              {saving ? "Saving..." : item ? `Update ${noun}` : `Create ${noun}`}
            </Button>
          }
        >
          <fieldset disabled={saving} className="grid min-w-0 gap-4">
            {children}
          </fieldset>
        </DialogFormBody>
      </fetcher.Form>
    </DialogPanel>
  );
}

/** An item's card below 768 px: its name as a heading, a line or two under it, then its facts. */
export function CatalogueCard({
  title,
  marker,
  children,
  facts,
}: {
  title: ReactNode;
  /** Before the title (a course's featured star, a partner's logo). */
  marker?: ReactNode;
  /** Under the title (a description). */
  children?: ReactNode;
  /** Label and value, e.g. ["Price", "£295.00"]. */
  facts: [label: string, value: ReactNode][];
}) {
  return (
    <div className="grid gap-2">
      <div className="flex items-start gap-3">
        {marker}
        <div className="min-w-0">
          <h3 className="font-medium">{title}</h3>
          {children}
        </div>
      </div>
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
        {facts.map(([label, value]) => (
          <Fragment key={label}>
            <dt className="text-muted-foreground">{label}</dt>
            <dd className="min-w-0 break-words">{value}</dd>
          </Fragment>
        ))}
      </dl>
    </div>
  );
}
/** '12 Jan 2026' (en-GB). */
export function formatAdminDate(value: Date | string): string {
  return new Intl.DateTimeFormat("en-GB", {
    day: "numeric",
    month: "short",
    year: "numeric",
  }).format(new Date(value));
}
