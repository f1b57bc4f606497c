import { ExternalLink } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/about";
import { AdminPageHeader } from "#app/components/admin/admin-ui.tsx";
import { useCatalogueForm } from "#app/components/admin/catalogue/catalogue-page.tsx";
import { TextareaField } from "#app/components/forms/fields.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { adminMeta } from "#app/lib/admin/nav.ts";
import { keepFormOnFailure, parseForm, type FormAnswer } from "#app/lib/forms.ts";
import { aboutFormSchema, type AdminAboutProfile } from "#app/lib/site/about.ts";
import { signedInAdmin } from "#server/auth/guard.server.ts";
import { getAdminAboutProfile, saveAboutProfile } from "#server/catalogue/about.server.ts";
import { adminFormAction } from "#server/forms/admin-form.server.ts";
import { failure, success } from "#server/forms/form-post.server.ts";

/**
 * /admin/about: the About profile (server/catalogue/about.server.ts) — the story, accreditations
 * and partner bodies /about shows once Published is ticked; until then /about says 'Coming
 * Soon'. One plain form: it posts the same with or without JavaScript.
 */

const SAVE_FAILED = "Failed to save the About page";
const TYPED = ["story", "accreditations", "partner_bodies", "published"] as const;

export const meta: Route.MetaFunction = () => adminMeta("About Page");

export async function loader() {
  return { profile: await getAdminAboutProfile() };
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = signedInAdmin(context);
  return adminFormAction(
    request,
    { name: "about", failureMessage: SAVE_FAILED, defaultIntent: "save" },
    {
      save: async (form: FormData) => {
        const parsed = parseForm(form, aboutFormSchema);
        if (!parsed.ok) {
          const { fieldErrors } = parsed;
          return failure(400, { form: "save", formData: form, names: TYPED, fieldErrors });
        }
        const saved = await saveAboutProfile(parsed.value, admin);
        return success(
          "save",
          saved.published ? "About page published" : "About page saved as a draft",
        );
      },
    },
  );
}

export const clientAction = keepFormOnFailure;

export default function AdminAbout({ loaderData, actionData }: Route.ComponentProps) {
  const { profile } = loaderData;
  return (
    <div>
      <AdminPageHeader
        title="About Page"
        description="What /about shows about NightWatch. Until you publish it, the page says Coming Soon. The trainers and the company's registered details are added to it for you."
        actions={
          <Button asChild variant="outline">
            <a href="/about" target="_blank" rel="noopener noreferrer">
              <ExternalLink aria-hidden /> View /about
              <span className="sr-only"> (opens in a new tab)</span>
            </a>
          </Button>
        }
      />
      <AboutForm profile={profile} pageAnswer={actionData as FormAnswer | undefined} />
    </div>
  );
}

/** The profile's texts, as the form asks for them. */
const PROFILE_TEXTS = [
  {
    name: "story",
    stored: "story",
    label: "Our story",
    hint: 'Who we are and how we work. A blank line starts a new paragraph; "- " a bullet.',
    rows: 8,
    maxLength: 10_000,
  },
  {
    name: "accreditations",
    stored: "accreditations",
    label: "Accreditations",
    hint: "One a line, as you hold them",
    rows: 4,
    maxLength: 4000,
  },
  {
    name: "partner_bodies",
    stored: "partnerBodies",
    label: "Partner bodies",
    hint: "The bodies you work with, one a line",
    rows: 4,
    maxLength: 4000,
  },
] as const satisfies readonly {
  name: string;
  stored: keyof AdminAboutProfile;
  label: string;
  hint: string;
  rows: number;
  maxLength: number;
}[];

function AboutForm({
  profile,
  pageAnswer,
}: {
  profile: AdminAboutProfile;
  /** The answer to a post without JavaScript. */
  pageAnswer?: FormAnswer;
}) {
  const form = useCatalogueForm({ schema: aboutFormSchema, onSaved: () => {}, pageAnswer });
  const typed = form.failed?.values;
  const published = typed ? typed.published === "on" : profile.published;
  const { fetcher, saving } = form;
  return (
    <fetcher.Form
      ref={form.formRef}
      method="post"
      noValidate
      onSubmit={form.onSubmit}
      className="grid max-w-3xl gap-4 rounded-lg border border-border bg-card p-4"
    >
      <input type="hidden" name="intent" value="save" />
      {pageAnswer?.message ? (
        <p role={pageAnswer.ok ? "status" : "alert"} className="text-sm">
          {pageAnswer.message}
        </p>
      ) : null}
      <p className="text-sm text-muted-foreground" data-testid="about-state">
        {profile.published
          ? "Published: /about shows this profile."
          : "Draft: /about says Coming Soon."}
        {profile.updatedAt
          ? ` Last saved ${new Date(profile.updatedAt).toLocaleString("en-GB", { timeZone: "Europe/London" })}.`
          : ""}
      </p>
      <fieldset disabled={saving} className="grid min-w-0 gap-4">
        {PROFILE_TEXTS.map(({ stored, ...text }) => (
          <TextareaField
            key={text.name}
            form={form}
            {...text}
            defaultValue={form.initial(text.name, profile[stored])}
          />
        ))}
        <label className="flex items-center gap-2 text-sm font-medium">
          <input
            type="checkbox"
            name="published"
            value="on"
            defaultChecked={published}
            className="size-4 accent-primary"
          />
          Published (shown on /about)
        </label>
      </fieldset>
      <div>
        <Button type="submit" disabled={saving}>
          {saving ? "Saving..." : "Save"}
        </Button>
      </div>
      <p className="text-xs text-muted-foreground">
        Trainers are managed on the{" "}
        <Link to="/admin/trainers" className="text-primary underline">
          Trainers
        </Link>{" "}
        screen.
      </p>
    </fetcher.Form>
  );
}
