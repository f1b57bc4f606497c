import { useEffect, useId, useRef, useState } from "react";
import { ArrowLeft, Pencil, Plus } from "lucide-react";
import { data, Link, useFetcher } from "react-router";
import type { Route } from "./+types/partners";
import {
  ConfirmDelete,
  Field,
  describe,
  focusFirstError,
  ImageInput,
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
import { partnerFormSchema, type AdminPartner } from "#app/lib/partner-form.ts";
import { adminMeta } from "#app/lib/admin-nav.ts";
import { toast } from "#app/lib/toast.ts";
import { requireAdmin } from "#server/auth.server.ts";
import { catalogueFormAction } from "#server/catalogue-form-action.server.ts";
import { log } from "#server/log.server.ts";
import {
  createPartner,
  deletePartner,
  listPartners,
  updatePartner,
} from "#server/partners.server.ts";

export const meta: Route.MetaFunction = () => adminMeta("Partners");

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  try {
    return data(
      { partners: await listPartners(), loadFailed: false },
      { headers: { "Cache-Control": "no-store" } },
    );
  } catch (error) {
    log.error({ err: error }, "could not load the admin partner list");
    return data(
      { partners: [] as AdminPartner[], loadFailed: true },
      { status: 500, headers: { "Cache-Control": "no-store" } },
    );
  }
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

export default function AdminPartners({ loaderData }: Route.ComponentProps) {
  const { partners, loadFailed } = loaderData;
  const [editing, setEditing] = useState<{ key: number; partner: AdminPartner | null } | null>(
    null,
  );
  const openCount = useRef(0);
  // Page-level, not per row: the row is gone once the list reloads, its toast must still show.
  const deleter = useFetcher<AdminFormResult>({ key: "partner-delete" });
  useActionResult(deleter);
  const open = (partner: AdminPartner | null) => setEditing({ key: ++openCount.current, partner });

  useEffect(() => {
    if (loadFailed)
      toast({ title: "Error", description: "Failed to fetch partners", variant: "destructive" });
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
          title="Partner Management"
          description="Training partners whose courses are sold through their own purchase pages."
          actions={
            <Button type="button" onClick={() => open(null)}>
              <Plus aria-hidden /> Add Partner
            </Button>
          }
        />
      </div>

      <section
        aria-labelledby="partners-heading"
        className="rounded-lg border border-border bg-card"
      >
        <h2 id="partners-heading" className="p-4 text-lg font-semibold">
          Partners ({partners.length})
        </h2>
        {partners.length === 0 ? (
          <p className="px-4 pb-6 text-sm text-muted-foreground">
            No partners found. Create your first partner to get started.
          </p>
        ) : (
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Logo</TableHead>
                <TableHead>Name</TableHead>
                <TableHead>Purchase URL</TableHead>
                <TableHead>Website</TableHead>
                <TableHead>Contact</TableHead>
                <TableHead className="text-right">Actions</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {partners.map((partner) => (
                <PartnerRow
                  key={partner.id}
                  partner={partner}
                  onEdit={() => open(partner)}
                  onDelete={() =>
                    deleter.submit({ intent: "delete", id: partner.id }, { method: "post" })
                  }
                  deleting={deleter.state !== "idle" && deleter.formData?.get("id") === partner.id}
                />
              ))}
            </TableBody>
          </Table>
        )}
      </section>

      <Dialog open={editing !== null} onOpenChange={(isOpen) => !isOpen && setEditing(null)}>
        {editing ? (
          <PartnerFormDialog
            key={editing.key}
            partner={editing.partner}
            onSaved={() => setEditing(null)}
          />
        ) : null}
      </Dialog>
    </div>
  );
}

const none = <span className="text-muted-foreground">—</span>;

function PartnerRow({
  partner,
  onEdit,
  onDelete,
  deleting,
}: {
  partner: AdminPartner;
  onEdit: () => void;
  onDelete: () => void;
  deleting: boolean;
}) {
  return (
    <TableRow aria-busy={deleting || undefined} className={deleting ? "opacity-50" : undefined}>
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
      <TableCell>
        <div className="flex justify-end gap-1">
          <Button
            type="button"
            variant="ghost"
            size="icon"
            onClick={onEdit}
            aria-label={`Edit ${partner.name}`}
            title="Edit"
          >
            <Pencil aria-hidden />
          </Button>
          <ConfirmDelete
            question="Are you sure you want to delete this partner?"
            label={`Delete ${partner.name}`}
            disabled={deleting}
            onConfirm={onDelete}
          />
        </div>
      </TableCell>
    </TableRow>
  );
}

function PartnerFormDialog({
  partner,
  onSaved,
}: {
  partner: AdminPartner | null;
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
  const field = (name: string) => describe(id(name), errors[name]);

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
        onSubmit={(event) => {
          const parsed = partnerFormSchema.safeParse(formValues(new FormData(event.currentTarget)));
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
