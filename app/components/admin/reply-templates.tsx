import { ArrowLeft, Trash2 } from "lucide-react";
import { useState } from "react";
import { Link, useFetcher } from "react-router";
import { ConfirmAction } from "#app/components/admin/confirm-action.tsx";
import { Section } from "#app/components/admin/orders/section.tsx";
import { useFormAnswer } from "#app/components/forms/use-form-answer.ts";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { checkBeforePost, type FieldErrors, type FormAnswer } from "#app/lib/forms.ts";
import {
  REPLY_BODY_MAX_LENGTH,
  REPLY_SUBJECT_MAX_LENGTH,
  TEMPLATE_NAME_MAX_LENGTH,
  replyTemplateSchema,
  type ReplyTemplate,
} from "#app/lib/inquiries/thread.ts";
import { Textarea } from "#app/components/ui/textarea.tsx";

/**
 * The reply templates screen (decision 0048): one form per template and one for a new one.
 * Without JavaScript a refused post shows its messages and what was typed on the form it came
 * from (matched by the template's id).
 */

function TemplateForm({
  template,
  answer,
}: {
  template: ReplyTemplate | null;
  answer?: FormAnswer;
}) {
  const fetcher = useFetcher<FormAnswer>();
  const remover = useFetcher<FormAnswer>();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formKey, setFormKey] = useState(0);
  const busy = fetcher.state !== "idle";
  const prefix = `template-${template?.id ?? "new"}`;
  useFormAnswer(fetcher, {
    onSuccess: () => {
      setErrors({});
      // A new template is now in the list: this form starts empty again.
      if (!template) setFormKey((k) => k + 1);
    },
    onFailure: (failed) => setErrors(failed.fieldErrors),
  });
  useFormAnswer(remover);
  const echo =
    answer &&
    !answer.ok &&
    answer.form === "saveTemplate" &&
    (answer.values?.id ?? "") === (template?.id ?? "")
      ? answer
      : null;
  const shown = { ...echo?.fieldErrors, ...errors };
  const value = (name: "name" | "subject" | "body") =>
    echo?.values?.[name] ?? template?.[name] ?? "";
  const field = (name: "name" | "subject", label: string, max: number) => (
    <div className="grid gap-1">
      <Label htmlFor={`${prefix}-${name}`}>{label}</Label>
      <Input
        id={`${prefix}-${name}`}
        name={name}
        maxLength={max}
        defaultValue={value(name)}
        aria-invalid={shown[name] ? true : undefined}
        aria-describedby={shown[name] ? `${prefix}-${name}-error` : undefined}
      />
      {shown[name] ? (
        <p id={`${prefix}-${name}-error`} role="alert" className="text-sm text-destructive">
          {shown[name]}
        </p>
      ) : null}
    </div>
  );
  return (
    <Section title={template ? template.name : "New template"}>
      <fetcher.Form
        method="post"
        key={formKey}
        className="grid gap-3"
        aria-label={template ? `Template ${template.name}` : "New template"}
        noValidate
        onSubmit={(event) => setErrors(checkBeforePost(event, replyTemplateSchema) ?? {})}
      >
        <input type="hidden" name="intent" value="saveTemplate" />
        <input type="hidden" name="id" value={template?.id ?? ""} />
        {field("name", "Name", TEMPLATE_NAME_MAX_LENGTH)}
        {field("subject", "Subject", REPLY_SUBJECT_MAX_LENGTH)}
        <div className="grid gap-1">
          <Label htmlFor={`${prefix}-body`}>Text</Label>
          <Textarea
            id={`${prefix}-body`}
            name="body"
            rows={8}
            maxLength={REPLY_BODY_MAX_LENGTH}
            defaultValue={value("body")}
            aria-invalid={shown.body ? true : undefined}
            aria-describedby={shown.body ? `${prefix}-body-error` : `${prefix}-body-hint`}
          />
          {shown.body ? (
            <p id={`${prefix}-body-error`} role="alert" className="text-sm text-destructive">
              {shown.body}
            </p>
          ) : (
            <p id={`${prefix}-body-hint`} className="text-xs text-muted-foreground">
              {"{name}"} becomes the enquirer's name. The reply is signed with the sender's name.
            </p>
          )}
        </div>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" size="sm" disabled={busy}>
            {busy ? "Saving..." : template ? "Save template" : "Add template"}
          </Button>
          {template ? (
            <ConfirmAction
              trigger={
                <Button
                  type="button"
                  size="sm"
                  variant="outline"
                  disabled={remover.state !== "idle"}
                >
                  <Trash2 aria-hidden />
                  Delete
                </Button>
              }
              question="Delete this template?"
              detail={`"${template.name}" will no longer be offered in the reply composer. Replies already sent are kept.`}
              confirmLabel="Delete"
              destructive
              onConfirm={() =>
                remover.submit({ intent: "deleteTemplate", id: template.id }, { method: "post" })
              }
            />
          ) : null}
        </div>
      </fetcher.Form>
    </Section>
  );
}

export function ReplyTemplatesView({
  templates,
  answer,
}: {
  templates: ReplyTemplate[];
  answer?: FormAnswer;
}) {
  return (
    <>
      <Link
        to="/admin/inquiries"
        className="mb-4 inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground"
      >
        <ArrowLeft aria-hidden className="size-4" />
        Back to Inquiries
      </Link>
      <h1 className="mb-2 text-2xl font-bold tracking-tight md:text-3xl">Reply templates</h1>
      <p className="mb-6 text-sm text-muted-foreground">
        Texts to start a reply from, on each enquiry's page. They are edited again before sending.
      </p>
      <div className="grid gap-6 lg:grid-cols-2">
        {templates.map((t) => (
          <TemplateForm key={t.id} template={t} answer={answer} />
        ))}
        <TemplateForm template={null} answer={answer} />
      </div>
    </>
  );
}
