import { useEffect, useId, useRef, useState } from "react";
import { ArrowLeft, Pencil, Plus } from "lucide-react";
import { data, Link, useFetcher } from "react-router";
import type { Route } from "./+types/categories";
import {
  ConfirmDelete,
  Field,
  describe,
  focusFirstError,
  formatAdminDate,
  useActionResult,
} from "#app/components/admin/catalogue/form-parts.tsx";
import { AdminPageHeader } from "#app/components/admin/admin-ui.tsx";
import { Button } from "#app/components/ui/button.tsx";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "#app/components/ui/dialog.tsx";
import { Input } from "#app/components/ui/input.tsx";
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "#app/components/ui/table.tsx";
import { Textarea } from "#app/components/ui/textarea.tsx";
import {
  fieldErrorsOf,
  formValues,
  type AdminFormResult,
  type FieldErrors,
} from "#app/lib/admin-form.ts";
import { categoryFormSchema, type AdminCategory } from "#app/lib/category-form.ts";
import { adminMeta } from "#app/lib/admin-nav.ts";
import { toast } from "#app/lib/toast.ts";
import { requireAdmin } from "#server/auth.server.ts";
import { catalogueFormAction } from "#server/catalogue-form-action.server.ts";
import {
  createCategory,
  deleteCategory,
  listCategories,
  updateCategory,
} from "#server/categories.server.ts";
import { log } from "#server/log.server.ts";

export const meta: Route.MetaFunction = () => adminMeta("Categories");

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  try {
    return data(
      { categories: await listCategories(), loadFailed: false },
      { headers: { "Cache-Control": "no-store" } },
    );
  } catch (error) {
    log.error({ err: error }, "could not load the admin category list");
    return data(
      { categories: [] as AdminCategory[], loadFailed: true },
      { status: 500, headers: { "Cache-Control": "no-store" } },
    );
  }
}

export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  return catalogueFormAction(request, {
    entity: "category",
    schema: categoryFormSchema,
    messages: {
      created: "Category created successfully",
      updated: "Category updated successfully",
      deleted: "Category deleted successfully",
      saveFailed: "Failed to save category",
      deleteFailed: "Failed to delete category",
    },
    create: createCategory,
    update: updateCategory,
    remove: deleteCategory,
  });
}

export default function AdminCategories({ loaderData }: Route.ComponentProps) {
  const { categories, loadFailed } = loaderData;
  const [editing, setEditing] = useState<{ key: number; category: AdminCategory | null } | null>(
    null,
  );
  const openCount = useRef(0);
  // Page-level, not per row: the row is gone once the list reloads, its toast must still show.
  const deleter = useFetcher<AdminFormResult>({ key: "category-delete" });
  useActionResult(deleter);
  const open = (category: AdminCategory | null) =>
    setEditing({ key: ++openCount.current, category });

  useEffect(() => {
    if (loadFailed)
      toast({ title: "Error", description: "Failed to fetch categories", variant: "destructive" });
  }, [loadFailed]);

  return (
    <div>
      <div>
        <Button asChild variant="ghost" size="sm" className="mb-2 -ml-2">
          <Link to="/admin/dashboard">
            <ArrowLeft aria-hidden /> Back to Dashboard
          </Link>
        </Button>
        <AdminPageHeader
          title="Category Management"
          description="Group courses by subject."
          actions={
            <Button type="button" onClick={() => open(null)}>
              <Plus aria-hidden /> Add Category
            </Button>
          }
        />
      </div>

      <section
        aria-labelledby="categories-heading"
        className="rounded-lg border border-border bg-card"
      >
        <h2 id="categories-heading" className="p-4 text-lg font-semibold">
          Categories ({categories.length})
        </h2>
        {categories.length === 0 ? (
          <p className="px-4 pb-6 text-sm text-muted-foreground">
            No categories yet. Create your first category to get started.
          </p>
        ) : (
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Name</TableHead>
                <TableHead>Slug</TableHead>
                <TableHead>Description</TableHead>
                <TableHead>Created</TableHead>
                <TableHead className="text-right">Actions</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {categories.map((category) => (
                <CategoryRow
                  key={category.id}
                  category={category}
                  onEdit={() => open(category)}
                  onDelete={() =>
                    deleter.submit({ intent: "delete", id: category.id }, { method: "post" })
                  }
                  deleting={deleter.state !== "idle" && deleter.formData?.get("id") === category.id}
                />
              ))}
            </TableBody>
          </Table>
        )}
      </section>

      <Dialog open={editing !== null} onOpenChange={(isOpen) => !isOpen && setEditing(null)}>
        {editing ? (
          <CategoryFormDialog
            key={editing.key}
            category={editing.category}
            onSaved={() => setEditing(null)}
          />
        ) : null}
      </Dialog>
    </div>
  );
}

function CategoryRow({
  category,
  onEdit,
  onDelete,
  deleting,
}: {
  category: AdminCategory;
  onEdit: () => void;
  onDelete: () => void;
  deleting: boolean;
}) {
  return (
    <TableRow aria-busy={deleting || undefined} className={deleting ? "opacity-50" : undefined}>
      <TableCell className="font-medium">{category.name}</TableCell>
      <TableCell>
        <code className="text-xs">{category.slug}</code>
      </TableCell>
      <TableCell className="max-w-md text-muted-foreground">
        <span className="line-clamp-2">{category.description ?? "—"}</span>
      </TableCell>
      <TableCell className="whitespace-nowrap">{formatAdminDate(category.createdAt)}</TableCell>
      <TableCell>
        <div className="flex justify-end gap-1">
          <Button
            type="button"
            variant="ghost"
            size="icon"
            onClick={onEdit}
            aria-label={`Edit ${category.name}`}
            title="Edit"
          >
            <Pencil aria-hidden />
          </Button>
          <ConfirmDelete
            question="Are you sure you want to delete this category? This may affect associated courses."
            label={`Delete ${category.name}`}
            disabled={deleting}
            onConfirm={onDelete}
          />
        </div>
      </TableCell>
    </TableRow>
  );
}

function CategoryFormDialog({
  category,
  onSaved,
}: {
  category: AdminCategory | null;
  onSaved: () => void;
}) {
  const fetcher = useFetcher<AdminFormResult>();
  const formRef = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const uid = useId();
  const id = (name: string) => `${uid}-${name}`;
  const saving = fetcher.state !== "idle";
  useActionResult(fetcher, {
    onSuccess: onSaved,
    onFailure: (result) => {
      const found = (!result.ok && result.errors) || {};
      setErrors(found);
      focusFirstError(formRef.current, found);
    },
  });

  return (
    <DialogContent>
      <DialogHeader>
        <DialogTitle>{category ? "Edit Category" : "Add Category"}</DialogTitle>
        <DialogDescription>
          Leave the slug empty to make it from the name (e.g. “Fraud &amp; Risk” → fraud-risk).
        </DialogDescription>
      </DialogHeader>
      <fetcher.Form
        ref={formRef}
        method="post"
        noValidate
        className="grid gap-4"
        onSubmit={(event) => {
          const parsed = categoryFormSchema.safeParse(
            formValues(new FormData(event.currentTarget)),
          );
          if (!parsed.success) {
            event.preventDefault();
            const found = fieldErrorsOf(parsed.error);
            setErrors(found);
            focusFirstError(event.currentTarget, found);
            return;
          }
          setErrors({});
        }}
      >
        <input type="hidden" name="intent" value="save" />
        {category ? <input type="hidden" name="id" value={category.id} /> : null}
        <fieldset disabled={saving} className="grid gap-4">
          <Field id={id("name")} label="Name" error={errors.name} required>
            <Input
              {...describe(id("name"), errors.name)}
              name="name"
              defaultValue={category?.name ?? ""}
              maxLength={120}
              required
            />
          </Field>
          <Field
            id={id("slug")}
            label="Slug"
            error={errors.slug}
            hint="Optional: made from the name when left empty"
          >
            <Input
              {...describe(id("slug"), errors.slug, true)}
              name="slug"
              defaultValue={category?.slug ?? ""}
              maxLength={120}
            />
          </Field>
          <Field id={id("description")} label="Description" error={errors.description}>
            <Textarea
              {...describe(id("description"), errors.description)}
              name="description"
              defaultValue={category?.description ?? ""}
            />
          </Field>
        </fieldset>
        <DialogFooter>
          <Button type="submit" disabled={saving}>
            {saving ? "Saving..." : category ? "Update Category" : "Create Category"}
          </Button>
        </DialogFooter>
      </fetcher.Form>
    </DialogContent>
  );
}
