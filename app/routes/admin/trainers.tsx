import { Trash2 } from "lucide-react";
import type { Route } from "./+types/trainers";
import { AddButton, AdminPageHeader, BackToDashboard } from "#app/components/admin/admin-ui.tsx";
import {
  DestructiveAction,
  EditAction,
  EditDialog,
  PageFormSection,
  PageNotice,
  pageAnswerState,
  useEditDialog,
  useRowAction,
} from "#app/components/admin/page-or-dialog.tsx";
import {
  DELETE_QUESTION,
  DeletePanel,
  deleteDetail,
  TrainerCard,
  TrainerForm,
  TrainerPhoto,
} from "#app/components/admin/trainers/trainer-parts.tsx";
import { useHydrated } from "#app/components/forms/form-parts.tsx";
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

  const dialog = useEditDialog<AdminTrainer>();
  const deleter = useRowAction("trainer-delete");
  const { pageForm, pageNotice, destroyed } = pageAnswerState(answer, loaderData, "delete");

  const actions = (trainer: AdminTrainer) => (
    <div className="flex justify-end gap-1">
      <EditAction
        hydrated={hydrated}
        label={trainer.name}
        onEdit={() => dialog.open(trainer)}
        href={`${TRAINERS_PATH}?edit=${trainer.id}`}
      />
      <DestructiveAction
        icon={<Trash2 aria-hidden />}
        label={`Delete ${trainer.name}`}
        title={`Delete ${trainer.name}`}
        href={`${TRAINERS_PATH}?delete=${trainer.id}`}
        confirm={
          hydrated
            ? {
                question: DELETE_QUESTION,
                detail: deleteDetail(trainer),
                confirmLabel: "Delete",
                busy: deleter.busy(trainer.id),
                onConfirm: () => deleter.submit("delete", trainer.id),
              }
            : null
        }
      />
    </div>
  );

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
            onAdd={() => dialog.open(null)}
            href={`${TRAINERS_PATH}?new`}
          />
        }
      />

      <PageNotice notice={pageNotice} listHref={TRAINERS_PATH} />

      {loaderData.deleting && !destroyed ? (
        <DeletePanel trainer={loaderData.deleting} listHref={TRAINERS_PATH} />
      ) : null}

      {pageForm ? (
        <PageFormSection id="trainer-form" title={pageForm.item ? "Edit Trainer" : "Add Trainer"}>
          <TrainerForm
            key={pageForm.item?.id ?? "new"}
            mode="page"
            trainer={pageForm.item}
            pageAnswer={pageForm.answer}
            listHref={TRAINERS_PATH}
          />
        </PageFormSection>
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

      <EditDialog dialog={dialog}>
        {(trainer, close) => <TrainerForm mode="dialog" trainer={trainer} onSaved={close} />}
      </EditDialog>
    </div>
  );
}
