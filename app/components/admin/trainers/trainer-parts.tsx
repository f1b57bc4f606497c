import { type ReactNode } from "react";
import { Form, Link, useNavigate } from "react-router";
import {
  CatalogueCard,
  CatalogueForm,
  useCatalogueForm,
} from "#app/components/admin/catalogue/catalogue-page.tsx";
import { TextareaField, TextField } from "#app/components/forms/fields.tsx";
import { useHydrated } from "#app/components/forms/form-parts.tsx";
import { ImageInput } from "#app/components/forms/image-field.tsx";
import { Button } from "#app/components/ui/button.tsx";
import {
  MAX_TRAINER_BIO,
  trainerFormSchema,
  type AdminTrainer,
} from "#app/lib/catalogue/trainer-form.ts";
import { type FormAnswer } from "#app/lib/forms.ts";

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
    pageAnswer,
  });
  const { errors, initial } = form;

  const body = (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          form={form}
          name="name"
          label="Name"
          maxLength={200}
          required
          defaultValue={initial("name", trainer?.name ?? null)}
        />
        <TextField
          form={form}
          name="role"
          label="Role"
          hint="e.g. Lead Counter Fraud Trainer"
          maxLength={200}
          defaultValue={initial("role", trainer?.role ?? null)}
        />
      </div>
      <TextareaField
        form={form}
        name="bio"
        label="Short bio"
        hint="Shown under their name on the courses they teach and on the About page"
        rows={4}
        maxLength={MAX_TRAINER_BIO}
        defaultValue={initial("bio", trainer?.bio ?? null)}
      />
      <TextareaField
        form={form}
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

  return (
    <CatalogueForm
      form={form}
      mode={mode}
      noun="Trainer"
      item={trainer}
      title={trainer ? "Edit Trainer" : "Add Trainer"}
      description="Trainers are shown on the courses that name them and on the About page."
      className="sm:max-w-2xl"
      multipart
      listHref={listHref}
    >
      {body}
      {trainer?.photoUrl && !hydrated ? (
        // Without JavaScript the Remove button above does nothing: a checkbox does the same.
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" name="remove_photo" value="on" className="size-4" />
          Remove the current photo
        </label>
      ) : null}
    </CatalogueForm>
  );
}
