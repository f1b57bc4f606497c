import type { Route } from "./+types/partners";
import {
  CatalogueCard,
  CatalogueFormDialog,
  CataloguePage,
  useCatalogueForm,
} from "#app/components/admin/catalogue/catalogue-page.tsx";
import { TextareaField, TextField, URL_INPUT } from "#app/components/forms/fields.tsx";
import { ImageInput } from "#app/components/forms/image-field.tsx";
import { EmailAddress } from "#app/components/ui/email-address.tsx";
import { TableCell, TableHead } from "#app/components/ui/table.tsx";
import { partnerFormSchema, type AdminPartner } from "#app/lib/catalogue/partner-form.ts";
import { adminMeta } from "#app/lib/admin/nav.ts";
import { signedInAdmin } from "#server/auth/guard.server.ts";
import { adminFormAction } from "#server/forms/admin-form.server.ts";
import { catalogueForm } from "#server/forms/catalogue-intents.server.ts";
import {
  createPartner,
  deletePartner,
  listPartners,
  updatePartner,
} from "#server/catalogue/partners.server.ts";
import { keepFormOnFailure } from "#app/lib/forms.ts";

export const meta: Route.MetaFunction = () => adminMeta("Partners");

export async function loader() {
  return { partners: await listPartners() };
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = signedInAdmin(context);
  const { screen, intents } = catalogueForm(admin, {
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
  return adminFormAction(request, screen, intents);
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
      card={(partner) => (
        <CatalogueCard
          title={partner.name}
          marker={<PartnerLogo partner={partner} />}
          facts={[
            [
              "Purchase URL",
              <NewTabLink
                key="buy"
                href={partner.purchaseUrl}
                label={`Buy: ${partner.name} purchase page`}
              >
                Buy
              </NewTabLink>,
            ],
            [
              "Website",
              <NewTabLink
                key="visit"
                href={partner.websiteUrl}
                label={`Visit ${partner.name} website`}
              >
                Visit
              </NewTabLink>,
            ],
            ["Contact", <ContactEmail key="contact" email={partner.contactEmail} />],
          ]}
        >
          {partner.description ? (
            <p className="line-clamp-2 text-sm text-muted-foreground">{partner.description}</p>
          ) : null}
        </CatalogueCard>
      )}
      label={(partner) => partner.name}
      form={(partner, onSaved) => <PartnerFormDialog partner={partner} onSaved={onSaved} />}
    />
  );
}

const none = <span className="text-muted-foreground">—</span>;

function PartnerLogo({ partner }: { partner: AdminPartner }) {
  return partner.logoUrl ? (
    <img
      src={partner.logoUrl}
      alt={`${partner.name} logo`}
      className="size-10 shrink-0 rounded border border-border bg-muted object-contain"
    />
  ) : (
    <div
      className="flex size-10 shrink-0 items-center justify-center rounded border border-border bg-muted text-xs text-muted-foreground"
      aria-label="No logo"
      role="img"
    >
      {partner.name.slice(0, 2).toUpperCase()}
    </div>
  );
}

function ContactEmail({ email }: { email: string | null }) {
  return email ? (
    <a href={`mailto:${email}`} className="underline-offset-4 hover:underline">
      <EmailAddress email={email} />
    </a>
  ) : (
    none
  );
}

function PartnerCells({ partner }: { partner: AdminPartner }) {
  return (
    <>
      <TableCell>
        <PartnerLogo partner={partner} />
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
        <NewTabLink href={partner.purchaseUrl} label={`Buy: ${partner.name} purchase page`}>
          Buy
        </NewTabLink>
      </TableCell>
      <TableCell>
        <NewTabLink href={partner.websiteUrl} label={`Visit ${partner.name} website`}>
          Visit
        </NewTabLink>
      </TableCell>
      <TableCell>
        <ContactEmail email={partner.contactEmail} />
      </TableCell>
    </>
  );
}

/** A partner's page, opened in a new tab (and said so), or a dash when it has none. */
function NewTabLink({
  href,
  label,
  children,
}: {
  href: string | null;
  label: string;
  children: string;
}) {
  if (!href) return none;
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      className="text-primary underline-offset-4 hover:underline"
      aria-label={`${label} (opens in a new tab)`}
    >
      {children}
    </a>
  );
}

function PartnerFormDialog({
  partner,
  onSaved,
}: {
  partner: AdminPartner | null;
  onSaved: () => void;
}) {
  const form = useCatalogueForm({ schema: partnerFormSchema, onSaved });
  return (
    <CatalogueFormDialog
      form={form}
      noun="Partner"
      item={partner}
      title={partner ? "Edit Partner" : "Add New Partner"}
      description="Courses linked to a partner are bought on the partner's purchase page."
      className="sm:max-w-2xl"
      multipart
    >
      <TextField
        form={form}
        name="name"
        label="Name"
        defaultValue={partner?.name ?? ""}
        maxLength={200}
        required
      />
      <TextareaField
        form={form}
        name="description"
        label="Description"
        defaultValue={partner?.description ?? ""}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          form={form}
          name="website_url"
          label="Website URL"
          {...URL_INPUT}
          defaultValue={partner?.websiteUrl ?? ""}
        />
        <TextField
          form={form}
          name="purchase_url"
          label="Purchase URL"
          {...URL_INPUT}
          defaultValue={partner?.purchaseUrl ?? ""}
        />
      </div>
      <TextField
        form={form}
        name="contact_email"
        label="Contact email"
        type="email"
        inputMode="email"
        autoComplete="off"
        defaultValue={partner?.contactEmail ?? ""}
      />
      <ImageInput
        name="logo"
        removeName="remove_logo"
        label="Logo"
        currentUrl={partner?.logoUrl ?? null}
        error={form.errors.logo}
        previewAlt="Logo preview"
      />
    </CatalogueFormDialog>
  );
}
