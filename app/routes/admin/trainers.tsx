import { useRef, useState } from "react";
import { Pencil, Trash2 } from "lucide-react";
import { Link, useFetcher } from "react-router";
import type { Route } from "./+types/trainers";
import { AddButton, AdminPageHeader, BackToDashboard } from "#app/components/admin/admin-ui.tsx";
import { ConfirmAction } from "#app/components/admin/confirm-action.tsx";
import {
  DELETE_QUESTION,
  DeletePanel,
  deleteDetail,
  TrainerCard,
  TrainerForm,
  TrainerPhoto,
} from "#app/components/admin/trainers/trainer-parts.tsx";
import { useHydrated } from "#app/components/forms/form-parts.tsx";
import { useFormAnswer } from "#app/components/forms/use-form-answer.ts";
import { Button } from "#app/components/ui/button.tsx";
import { Dialog } from "#app/components/ui/dialog.tsx";
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "#app/components/ui/table.tsx";
import { trainerFormSchema, type AdminTrainer } from "#app/lib/catalogue/trainer-form.ts";
import { adminMeta } from "#app/lib/admin/nav.ts";
import { keepFormOnFailure, type FormAnswer } from "#app/lib/forms.ts";
import { signedInAdmin } from "#server/auth/guard.server.ts";
import {
  createTrainer,
  deleteTrainer,
  listTrainers,
  updateTrainer,
} from "#server/catalogue/trainers.server.ts";
import { adminFormAction } from "#server/forms/admin-form.server.ts";
import { catalogueForm } from "#server/forms/catalogue-intents.server.ts";

/**
 * /admin/trainers: the people who teach (server/catalogue/trainers.server.ts) — name, role, short
 * bio, credentials and photo; add, edit and a confirmed delete. With JavaScript the form opens in
 * a dialog and the delete asks in one; without it, `?new`, `?edit=<id>` and `?delete=<id>` show
 * them on the page, and each post answers on the page.
 */

const TRAINERS_PATH = "/admin/trainers";

export const meta: Route.MetaFunction = () => adminMeta("Trainers");

export async function loader({ request }: Route.LoaderArgs) {
  const asked = new URL(request.url).searchParams;
  const trainers = await listTrainers();
  const named = (id: string | null) => (id ? (trainers.find((t) => t.id === id) ?? null) : null);
  return {
    trainers,
    adding: asked.has("new"),
    editing: named(asked.get("edit")),
    deleting: named(asked.get("delete")),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = signedInAdmin(context);
  const { screen, intents } = catalogueForm(admin, {
    entity: "trainer",
    schema: trainerFormSchema,
    imageField: "photo",
    keepTyped: ["name", "role", "bio", "credentials"],
    messages: {
      created: "Trainer created successfully",
      updated: "Trainer updated successfully",
      deleted: "Trainer deleted successfully",
      saveFailed: "Failed to save trainer",
      deleteFailed: "Failed to delete trainer",
    },
    create: createTrainer,
    update: updateTrainer,
    remove: deleteTrainer,
  });
  return adminFormAction(request, screen, intents);
}

export const clientAction = keepFormOnFailure;

export default function AdminTrainers({ loaderData, actionData }: Route.ComponentProps) {
  const { trainers } = loaderData;
  const hydrated = useHydrated();
  const answer = actionData as FormAnswer | undefined;

  // With JavaScript: one dialog for adding and editing, a fresh form each time it opens.
  const [editing, setEditing] = useState<{ key: number; trainer: AdminTrainer | null } | null>(
    null,
  );
  const opened = useRef(0);
  const open = (trainer: AdminTrainer | null) => setEditing({ key: ++opened.current, trainer });
  const deleter = useFetcher<FormAnswer>({ key: "trainer-delete" });
  useFormAnswer(deleter);

  // Without JavaScript: the form or question the URL asks for, on the page, until it succeeds.
  const saved = answer?.ok === true && answer.form === "save";
  const pageForm =
    !saved && (loaderData.editing || loaderData.adding)
      ? { trainer: loaderData.editing, answer: answer?.form === "save" ? answer : undefined }
      : null;
  const pageNotice =
    answer && (answer.ok || answer.form === "delete") ? (answer.message ?? null) : null;
  const deleted = answer?.ok === true && answer.form === "delete";

  const actions = (trainer: AdminTrainer) => {
    const label = trainer.name;
    const deleting = deleter.state !== "idle" && deleter.formData?.get("id") === trainer.id;
    return (
      <div className="flex justify-end gap-1">
        {hydrated ? (
          <Button
            type="button"
            variant="ghost"
            size="icon"
            onClick={() => open(trainer)}
            aria-label={`Edit ${label}`}
            title="Edit"
          >
            <Pencil aria-hidden />
          </Button>
        ) : (
          <Button asChild variant="ghost" size="icon">
            <Link to={`${TRAINERS_PATH}?edit=${trainer.id}`} aria-label={`Edit ${label}`}>
              <Pencil aria-hidden />
            </Link>
          </Button>
        )}
        {hydrated ? (
          <ConfirmAction
            trigger={
              <Button
                type="button"
                variant="ghost"
                size="icon"
                aria-label={`Delete ${label}`}
                title={`Delete ${label}`}
                disabled={deleting}
                className="text-destructive hover:text-destructive"
              >
                <Trash2 aria-hidden />
              </Button>
            }
            question={DELETE_QUESTION}
            detail={deleteDetail(trainer)}
            confirmLabel="Delete"
            destructive
            onConfirm={() =>
              deleter.submit({ intent: "delete", id: trainer.id }, { method: "post" })
            }
          />
        ) : (
          <Button asChild variant="ghost" size="icon" className="text-destructive">
            <Link to={`${TRAINERS_PATH}?delete=${trainer.id}`} aria-label={`Delete ${label}`}>
              <Trash2 aria-hidden />
            </Link>
          </Button>
        )}
      </div>
    );
  };

  return (
    <div>
      <BackToDashboard />
      <AdminPageHeader
        title="Trainers"
        description="The people who teach: shown on the courses that name them and on the About page."
        actions={
          <AddButton
            label="Add Trainer"
            hydrated={hydrated}
            onAdd={() => open(null)}
            href={`${TRAINERS_PATH}?new`}
          />
        }
      />

      {pageNotice ? (
        <p role="status" className="mb-4 rounded-md border border-border bg-card p-3 text-sm">
          {pageNotice}{" "}
          <Link to={TRAINERS_PATH} className="text-primary underline">
            Dismiss
          </Link>
        </p>
      ) : null}

      {loaderData.deleting && !deleted ? (
        <DeletePanel trainer={loaderData.deleting} listHref={TRAINERS_PATH} />
      ) : null}

      {pageForm ? (
        <section
          id="trainer-form"
          aria-labelledby="trainer-form-heading"
          className="mb-6 rounded-lg border border-border bg-card p-4"
        >
          <h2 id="trainer-form-heading" className="text-lg font-semibold">
            {pageForm.trainer ? "Edit Trainer" : "Add Trainer"}
          </h2>
          <TrainerForm
            key={pageForm.trainer?.id ?? "new"}
            mode="page"
            trainer={pageForm.trainer}
            pageAnswer={pageForm.answer}
            listHref={TRAINERS_PATH}
          />
        </section>
      ) : null}

      <section
        aria-labelledby="trainers-heading"
        className="rounded-lg border border-border bg-card"
      >
        <h2 id="trainers-heading" className="p-4 text-lg font-semibold">
          Trainers ({trainers.length})
        </h2>
        {trainers.length === 0 ? (
          <p className="px-4 pb-6 text-sm text-muted-foreground">
            No trainers yet. Add the people who teach, then name them on their courses.
          </p>
        ) : (
          <>
            {/* Below 768 px: one card per trainer, the same actions (no sideways scrolling). */}
            <ul className="divide-y divide-border border-t border-border md:hidden">
              {trainers.map((trainer) => (
                <li key={trainer.id} className="grid gap-3 p-4">
                  <TrainerCard trainer={trainer} />
                  {actions(trainer)}
                </li>
              ))}
            </ul>
            <Table wrapperClassName="hidden md:block">
              <TableHeader>
                <TableRow>
                  <TableHead>Photo</TableHead>
                  <TableHead>Name</TableHead>
                  <TableHead>Role</TableHead>
                  <TableHead className="text-right">Courses</TableHead>
                  <TableHead className="text-right">Actions</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {trainers.map((trainer) => (
                  <TableRow key={trainer.id} data-trainer-id={trainer.id}>
                    <TableCell>
                      <TrainerPhoto trainer={trainer} />
                    </TableCell>
                    <TableCell className="max-w-md">
                      <div className="font-medium">{trainer.name}</div>
                      {trainer.bio ? (
                        <div className="line-clamp-2 text-xs text-muted-foreground">
                          {trainer.bio}
                        </div>
                      ) : null}
                    </TableCell>
                    <TableCell>{trainer.role ?? "—"}</TableCell>
                    <TableCell className="text-right tabular-nums">{trainer.courseCount}</TableCell>
                    <TableCell>{actions(trainer)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </>
        )}
      </section>

      <Dialog open={editing !== null} onOpenChange={(isOpen) => !isOpen && setEditing(null)}>
        {editing ? (
          <TrainerForm
            key={editing.key}
            mode="dialog"
            trainer={editing.trainer}
            onSaved={() => setEditing(null)}
          />
        ) : null}
      </Dialog>
    </div>
  );
}
