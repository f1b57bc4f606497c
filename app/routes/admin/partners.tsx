import type { Route } from "./+types/partners";
import {
  CataloguePage,
  useCatalogueForm,
} from "#app/components/admin/catalogue/catalogue-page.tsx";
import { Field, ImageInput } from "#app/components/admin/catalogue/form-parts.tsx";
import { Button } from "#app/components/ui/button.tsx";
import {
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "#app/components/ui/dialog.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { TableCell, TableHead } from "#app/components/ui/table.tsx";
import { Textarea } from "#app/components/ui/textarea.tsx";
import { partnerFormSchema, type AdminPartner } from "#app/lib/partner-form.ts";
import { adminMeta } from "#app/lib/admin-nav.ts";
import { requireAdmin } from "#server/auth.server.ts";
import { catalogueFormAction } from "#server/forms/catalogue-form-action.server.ts";
import {
  createPartner,
  deletePartner,
  listPartners,
  updatePartner,
} from "#server/partners.server.ts";
import { keepFormOnFailure } from "#app/lib/forms.ts";

export const meta: Route.MetaFunction = () => adminMeta("Partners");

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return { partners: await listPartners() };
}

export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  return catalogueFormAction(request, {
    entity: "partner",
    schema: partnerFormSchema,
    imageField: "logo",
    messages: {
      created: "Partner created successfully",
      updated: "Partner updated successfully",
      deleted: "Partner deleted successfully",
      saveFailed: "Failed to save partner",
      deleteFailed: "Failed to delete partner",
    },
    create: createPartner,
    update: updatePartner,
    remove: deletePartner,
  });
}

export const clientAction = keepFormOnFailure;

export default function AdminPartners({ loaderData }: Route.ComponentProps) {
  return (
    <CataloguePage
      noun="Partner"
      plural="Partners"
      title="Partner Management"
      description="Training partners whose courses are sold through their own purchase pages."
      items={loaderData.partners}
      emptyText="No partners found. Create your first partner to get started."
      deleteQuestion="Are you sure you want to delete this partner?"
      columns={
        <>
          <TableHead>Logo</TableHead>
          <TableHead>Name</TableHead>
          <TableHead>Purchase URL</TableHead>
          <TableHead>Website</TableHead>
          <TableHead>Contact</TableHead>
        </>
      }
      cells={(partner) => <PartnerCells partner={partner} />}
      label={(partner) => partner.name}
      form={(partner, onSaved) => <PartnerFormDialog partner={partner} onSaved={onSaved} />}
    />
  );
}

const none = <span className="text-muted-foreground">—</span>;

function PartnerCells({ partner }: { partner: AdminPartner }) {
  return (
    <>
      <TableCell>
        {partner.logoUrl ? (
          <img
            src={partner.logoUrl}
            alt={`${partner.name} logo`}
            className="size-10 rounded border border-border bg-muted object-contain"
          />
        ) : (
          <div
            className="flex size-10 items-center justify-center rounded border border-border bg-muted text-xs text-muted-foreground"
            aria-label="No logo"
            role="img"
          >
            {partner.name.slice(0, 2).toUpperCase()}
          </div>
        )}
      </TableCell>
      <TableCell>
        <div className="font-medium">{partner.name}</div>
        {partner.description ? (
          <div className="line-clamp-2 max-w-sm text-xs text-muted-foreground">
            {partner.description}
          </div>
        ) : null}
      </TableCell>
      <TableCell>
        {partner.purchaseUrl ? (
          <a
            href={partner.purchaseUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="text-primary underline-offset-4 hover:underline"
            aria-label={`Buy: ${partner.name} purchase page (opens in a new tab)`}
          >
            Buy
          </a>
        ) : (
          none
        )}
      </TableCell>
      <TableCell>
        {partner.websiteUrl ? (
          <a
            href={partner.websiteUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="text-primary underline-offset-4 hover:underline"
            aria-label={`Visit ${partner.name} website (opens in a new tab)`}
          >
            Visit
          </a>
        ) : (
          none
        )}
      </TableCell>
      <TableCell>
        {partner.contactEmail ? (
          <a href={`mailto:${partner.contactEmail}`} className="underline-offset-4 hover:underline">
            {partner.contactEmail}
          </a>
        ) : (
          none
        )}
      </TableCell>
    </>
  );
}

function PartnerFormDialog({
  partner,
  onSaved,
}: {
  partner: AdminPartner | null;
  onSaved: () => void;
}) {
  const { fetcher, formRef, errors, id, field, saving, onSubmit } = useCatalogueForm({
    schema: partnerFormSchema,
    onSaved,
  });

  return (
    <DialogContent className="sm:max-w-2xl">
      <DialogHeader>
        <DialogTitle>{partner ? "Edit Partner" : "Add New Partner"}</DialogTitle>
        <DialogDescription>
          Courses linked to a partner are bought on the partner's purchase page.
        </DialogDescription>
      </DialogHeader>
      <fetcher.Form
        ref={formRef}
        method="post"
        encType="multipart/form-data"
        noValidate
        className="grid gap-4"
        onSubmit={onSubmit}
      >
        <input type="hidden" name="intent" value="save" />
        {partner ? <input type="hidden" name="id" value={partner.id} /> : null}
        <fieldset disabled={saving} className="grid gap-4">
          <Field id={id("name")} label="Name" error={errors.name} required>
            <Input
              {...field("name")}
              name="name"
              defaultValue={partner?.name ?? ""}
              maxLength={200}
              required
            />
          </Field>
          <Field id={id("description")} label="Description" error={errors.description}>
            <Textarea
              {...field("description")}
              name="description"
              defaultValue={partner?.description ?? ""}
            />
          </Field>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field id={id("website_url")} label="Website URL" error={errors.website_url}>
              <Input
                {...field("website_url")}
                name="website_url"
                type="url"
                inputMode="url"
                placeholder="https://"
                defaultValue={partner?.websiteUrl ?? ""}
              />
            </Field>
            <Field id={id("purchase_url")} label="Purchase URL" error={errors.purchase_url}>
              <Input
                {...field("purchase_url")}
                name="purchase_url"
                type="url"
                inputMode="url"
                placeholder="https://"
                defaultValue={partner?.purchaseUrl ?? ""}
              />
            </Field>
          </div>
          <Field id={id("contact_email")} label="Contact email" error={errors.contact_email}>
            <Input
              {...field("contact_email")}
              name="contact_email"
              type="email"
              inputMode="email"
              autoComplete="off"
              defaultValue={partner?.contactEmail ?? ""}
            />
          </Field>
          <ImageInput
            name="logo"
            removeName="remove_logo"
            label="Logo"
            currentUrl={partner?.logoUrl ?? null}
            error={errors.logo}
            previewAlt="Logo preview"
          />
        </fieldset>
        <DialogFooter>
          <Button type="submit" disabled={saving}>
            {saving ? "Saving..." : partner ? "Update Partner" : "Create Partner"}
          </Button>
        </DialogFooter>
      </fetcher.Form>
    </DialogContent>
  );
}
