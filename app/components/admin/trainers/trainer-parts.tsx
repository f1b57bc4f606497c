import { type ReactNode } from "react";
import { Form, Link, useNavigate } from "react-router";
import {
  CatalogueCard,
  CatalogueFormDialog,
  useCatalogueForm,
} from "#app/components/admin/catalogue/catalogue-page.tsx";
import { describe, TextareaField, TextField } from "#app/components/forms/fields.tsx";
import { useHydrated } from "#app/components/forms/form-parts.tsx";
import { ImageInput } from "#app/components/forms/image-field.tsx";
import { Button } from "#app/components/ui/button.tsx";
import {
  MAX_TRAINER_BIO,
  trainerFormSchema,
  type AdminTrainer,
} from "#app/lib/catalogue/trainer-form.ts";
import { type FieldErrors, type FormAnswer } from "#app/lib/forms.ts";

/**
 * The Trainers screen's parts (app/routes/admin/trainers.tsx): a trainer's photo, row and card,
 * the delete question without JavaScript, and the Add / Edit form — in a dialog with JavaScript,
 * on the page without it.
 */

export const DELETE_QUESTION = "Are you sure you want to delete this trainer?";

/** What deleting a trainer does, in a sentence. */
export function deleteDetail(trainer: AdminTrainer): ReactNode {
  const courses =
    trainer.courseCount === 0
      ? "No course names them."
      : `${trainer.courseCount} ${trainer.courseCount === 1 ? "course names" : "courses name"} them and will no longer show them.`;
  return (
    <>
      The trainer <strong className="text-foreground">‘{trainer.name}’</strong> will be deleted.{" "}
      {courses} This cannot be undone.
    </>
  );
}

export function TrainerPhoto({ trainer }: { trainer: AdminTrainer }) {
  return trainer.photoUrl ? (
    <img
      src={trainer.photoUrl}
      alt={`Photo of ${trainer.name}`}
      className="size-10 shrink-0 rounded-full border border-border bg-muted object-cover"
    />
  ) : (
    <div
      className="flex size-10 shrink-0 items-center justify-center rounded-full border border-border bg-muted text-xs text-muted-foreground"
      aria-label="No photo"
      role="img"
    >
      {trainer.name.slice(0, 2).toUpperCase()}
    </div>
  );
}

export function TrainerCard({ trainer }: { trainer: AdminTrainer }) {
  return (
    <CatalogueCard
      title={trainer.name}
      marker={<TrainerPhoto trainer={trainer} />}
      facts={[
        ["Role", trainer.role ?? "—"],
        ["Courses", String(trainer.courseCount)],
      ]}
    >
      {trainer.bio ? (
        <p className="line-clamp-2 text-sm text-muted-foreground">{trainer.bio}</p>
      ) : null}
    </CatalogueCard>
  );
}

/** The delete question without JavaScript (`?delete=<id>`): the dialog's words, as a form. */
export function DeletePanel({ trainer, listHref }: { trainer: AdminTrainer; listHref: string }) {
  return (
    <section
      aria-labelledby="trainer-delete-heading"
      aria-describedby="trainer-delete-detail"
      className="mb-6 rounded-lg border border-destructive bg-destructive/5 p-4"
    >
      <h2 id="trainer-delete-heading" className="text-lg font-semibold">
        {DELETE_QUESTION}
      </h2>
      <p id="trainer-delete-detail" className="mt-1 text-sm">
        {deleteDetail(trainer)}
      </p>
      <Form method="post" className="mt-4 flex flex-wrap gap-2">
        <input type="hidden" name="intent" value="delete" />
        <input type="hidden" name="id" value={trainer.id} />
        <Button type="submit" variant="destructive">
          Delete
        </Button>
        <Button asChild variant="outline">
          <Link to={listHref}>Cancel</Link>
        </Button>
      </Form>
    </section>
  );
}

/**
 * The Add / Edit trainer form. The schema runs before posting; the server checks everything
 * again (and reads the photo's bytes). On the page, a refused post comes back with its messages
 * and what was typed.
 */
export function TrainerForm({
  mode,
  trainer,
  pageAnswer,
  listHref,
  onSaved,
}: {
  mode: "dialog" | "page";
  trainer: AdminTrainer | null;
  pageAnswer?: FormAnswer;
  listHref?: string;
  onSaved?: () => void;
}) {
  const navigate = useNavigate();
  const hydrated = useHydrated();
  const form = useCatalogueForm({
    schema: trainerFormSchema,
    onSaved: onSaved ?? (() => listHref && navigate(listHref)),
  });
  const failed = pageAnswer && !pageAnswer.ok ? pageAnswer : undefined;
  // The page's answer until the browser has checked or posted the form itself.
  const errors: FieldErrors =
    Object.keys(form.errors).length > 0 || form.fetcher.data
      ? form.errors
      : (failed?.fieldErrors ?? {});
  const fields = {
    errors,
    id: form.id,
    field: (name: Parameters<typeof form.id>[0], hasHint = false) =>
      describe(form.id(name), errors[name], hasHint),
  };
  const initial = (name: string, stored: string | null) => failed?.values?.[name] ?? stored ?? "";

  const body = (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          form={fields}
          name="name"
          label="Name"
          maxLength={200}
          required
          defaultValue={initial("name", trainer?.name ?? null)}
        />
        <TextField
          form={fields}
          name="role"
          label="Role"
          hint="e.g. Lead Counter Fraud Trainer"
          maxLength={200}
          defaultValue={initial("role", trainer?.role ?? null)}
        />
      </div>
      <TextareaField
        form={fields}
        name="bio"
        label="Short bio"
        hint="Shown under their name on the courses they teach and on the About page"
        rows={4}
        maxLength={MAX_TRAINER_BIO}
        defaultValue={initial("bio", trainer?.bio ?? null)}
      />
      <TextareaField
        form={fields}
        name="credentials"
        label="Credentials"
        hint='Qualifications and memberships; start a line with "- " for a bullet'
        rows={3}
        maxLength={2000}
        defaultValue={initial("credentials", trainer?.credentials ?? null)}
      />
      <ImageInput
        name="photo"
        removeName="remove_photo"
        label="Photo"
        currentUrl={trainer?.photoUrl ?? null}
        error={errors.photo}
        previewAlt="Photo preview"
      />
    </>
  );

  if (mode === "dialog") {
    return (
      <CatalogueFormDialog
        form={form}
        noun="Trainer"
        item={trainer}
        title={trainer ? "Edit Trainer" : "Add Trainer"}
        description="Trainers are shown on the courses that name them and on the About page."
        className="sm:max-w-2xl"
        multipart
      >
        {body}
      </CatalogueFormDialog>
    );
  }
  const { fetcher, saving } = form;
  return (
    <fetcher.Form
      ref={form.formRef}
      method="post"
      encType="multipart/form-data"
      noValidate
      onSubmit={form.onSubmit}
      className="mt-4 grid gap-4"
    >
      <input type="hidden" name="intent" value="save" />
      {trainer ? <input type="hidden" name="id" value={trainer.id} /> : null}
      {failed?.message ? (
        <p role="alert" className="text-sm text-destructive">
          {failed.message}
        </p>
      ) : null}
      <fieldset disabled={saving} className="grid min-w-0 gap-4">
        {body}
        {trainer?.photoUrl && !hydrated ? (
          // Without JavaScript the Remove button above does nothing: a checkbox does the same.
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="remove_photo" value="on" className="size-4" />
            Remove the current photo
          </label>
        ) : null}
      </fieldset>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={saving}>
          {saving ? "Saving..." : trainer ? "Update Trainer" : "Create Trainer"}
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
