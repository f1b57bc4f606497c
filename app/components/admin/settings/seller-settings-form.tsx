import { z } from "zod/mini";
import { useCatalogueForm } from "#app/components/admin/catalogue/catalogue-page.tsx";
import { SelectField, TextareaField, TextField } from "#app/components/forms/fields.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { formatDateTime } from "#app/lib/admin/time.ts";
import {
  SELLER_SETTING_GROUPS,
  SELLER_SETTING_KEYS,
  SELLER_SETTINGS_INTENT,
  type SellerSettingsScreen,
} from "#app/lib/admin/seller-settings.ts";
import type { FormAnswer } from "#app/lib/forms.ts";

/**
 * The Settings screen's form (decision 0043): one plain form, uncontrolled fields with the values
 * in force as defaults, posting the same with or without JavaScript. The browser only reads the
 * fields; each value's check is the server's, the same as the environment's at start.
 */

const postedSettings = z.object(
  Object.fromEntries(SELLER_SETTING_KEYS.map((key) => [key, z.optional(z.string())])),
);

export function SellerSettingsForm({
  screen,
  pageAnswer,
}: {
  screen: SellerSettingsScreen;
  /** The answer to a post without JavaScript. */
  pageAnswer?: FormAnswer;
}) {
  const form = useCatalogueForm({ schema: postedSettings, onSaved: () => {}, pageAnswer });
  const { fetcher, saving } = form;
  const fromEnvironment = new Set<string>(screen.fromEnvironment);
  return (
    <fetcher.Form
      ref={form.formRef}
      method="post"
      noValidate
      onSubmit={form.onSubmit}
      className="grid max-w-3xl gap-6 rounded-lg border border-border bg-card p-4"
    >
      <input type="hidden" name="intent" value={SELLER_SETTINGS_INTENT} />
      {pageAnswer?.message ? (
        <p role={pageAnswer.ok ? "status" : "alert"} className="text-sm">
          {pageAnswer.message}
        </p>
      ) : null}
      <p className="text-sm text-muted-foreground" data-testid="settings-state">
        {screen.updatedAt
          ? `Last changed ${formatDateTime(screen.updatedAt)} by ${screen.updatedBy}.`
          : "Not changed here yet: the values come from the site's configuration."}
      </p>
      {SELLER_SETTING_GROUPS.map((group) => (
        <fieldset key={group.title} disabled={saving} className="grid min-w-0 gap-4">
          <legend className="mb-2 text-lg font-semibold">{group.title}</legend>
          {group.fields.map((field) => {
            const hint = [
              "hint" in field ? field.hint : null,
              "placeholder" in field ? `Empty: ${field.placeholder}.` : null,
              fromEnvironment.has(field.key)
                ? "From the site's configuration until saved here."
                : null,
            ]
              .filter(Boolean)
              .join(" ");
            const common = {
              form,
              name: field.key,
              label: field.label,
              ...(hint ? { hint } : {}),
              ...("required" in field ? { required: true } : {}),
              ...("placeholder" in field ? { placeholder: field.placeholder } : {}),
              defaultValue: form.initial(field.key, screen.values[field.key]),
            };
            if ("choices" in field) {
              return (
                <SelectField key={field.key} {...common}>
                  {field.choices.map((choice) => (
                    <option key={choice} value={choice}>
                      {choice === "true" ? "Yes" : "No"}
                    </option>
                  ))}
                </SelectField>
              );
            }
            if ("multiline" in field) {
              return <TextareaField key={field.key} {...common} rows={3} />;
            }
            return <TextField key={field.key} {...common} autoComplete="off" />;
          })}
        </fieldset>
      ))}
      <div>
        <Button type="submit" disabled={saving}>
          {saving ? "Saving..." : "Save Settings"}
        </Button>
      </div>
    </fetcher.Form>
  );
}
