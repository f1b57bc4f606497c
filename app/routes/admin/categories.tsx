import type { Route } from "./+types/categories";
import {
  formatAdminDate,
  CatalogueCard,
  CatalogueFormDialog,
  CataloguePage,
  useCatalogueForm,
} from "#app/components/admin/catalogue/catalogue-page.tsx";
import { TextareaField, TextField } from "#app/components/forms/fields.tsx";
import { TableCell, TableHead } from "#app/components/ui/table.tsx";
import { categoryFormSchema, type AdminCategory } from "#app/lib/catalogue/category-form.ts";
import { adminMeta } from "#app/lib/admin/nav.ts";
import { signedInAdmin } from "#server/auth/guard.server.ts";
import { adminFormAction } from "#server/forms/admin-form.server.ts";
import { catalogueForm } from "#server/forms/catalogue-intents.server.ts";
import {
  createCategory,
  deleteCategory,
  listCategories,
  updateCategory,
} from "#server/catalogue/categories.server.ts";
import { keepFormOnFailure } from "#app/lib/forms.ts";

export const meta: Route.MetaFunction = () => adminMeta("Categories");

export async function loader() {
  return { categories: await listCategories() };
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = signedInAdmin(context);
  const { screen, intents } = catalogueForm(admin, {
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
  return adminFormAction(request, screen, intents);
}

export const clientAction = keepFormOnFailure;

export default function AdminCategories({ loaderData }: Route.ComponentProps) {
  return (
    <CataloguePage
      noun="Category"
      plural="Categories"
      title="Category Management"
      description="Group courses by subject."
      items={loaderData.categories}
      emptyText="No categories yet. Create your first category to get started."
      deleteQuestion="Are you sure you want to delete this category? This may affect associated courses."
      columns={
        <>
          <TableHead>Name</TableHead>
          <TableHead>Slug</TableHead>
          <TableHead>Description</TableHead>
          <TableHead>Created</TableHead>
        </>
      }
      cells={(category) => (
        <>
          <TableCell className="font-medium">{category.name}</TableCell>
          <TableCell>
            <code className="text-xs">{category.slug}</code>
          </TableCell>
          <TableCell className="max-w-md text-muted-foreground">
            <span className="line-clamp-2">{category.description ?? "—"}</span>
          </TableCell>
          <TableCell className="whitespace-nowrap">{formatAdminDate(category.createdAt)}</TableCell>
        </>
      )}
      card={(category) => (
        <CatalogueCard
          title={category.name}
          facts={[
            [
              "Slug",
              <code key="slug" className="text-xs break-all">
                {category.slug}
              </code>,
            ],
            ["Created", formatAdminDate(category.createdAt)],
          ]}
        >
          {category.description ? (
            <p className="line-clamp-3 text-sm text-muted-foreground">{category.description}</p>
          ) : null}
        </CatalogueCard>
      )}
      label={(category) => category.name}
      form={(category, onSaved) => <CategoryFormDialog category={category} onSaved={onSaved} />}
    />
  );
}

function CategoryFormDialog({
  category,
  onSaved,
}: {
  category: AdminCategory | null;
  onSaved: () => void;
}) {
  const form = useCatalogueForm({ schema: categoryFormSchema, onSaved });
  return (
    <CatalogueFormDialog
      form={form}
      noun="Category"
      item={category}
      title={category ? "Edit Category" : "Add Category"}
      description="Leave the slug empty to make it from the name (e.g. “Fraud & Risk” → fraud-risk)."
    >
      <TextField
        form={form}
        name="name"
        label="Name"
        defaultValue={category?.name ?? ""}
        maxLength={120}
        required
      />
      <TextField
        form={form}
        name="slug"
        label="Slug"
        hint="Optional: made from the name when left empty"
        defaultValue={category?.slug ?? ""}
        maxLength={120}
      />
      <TextareaField
        form={form}
        name="description"
        label="Description"
        defaultValue={category?.description ?? ""}
      />
    </CatalogueFormDialog>
  );
}
