import { Send } from "lucide-react";
import { useState } from "react";
import { Form, Link, useFetcher, useNavigate } from "react-router";
import { useFormAnswer } from "#app/components/forms/use-form-answer.ts";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { Notice } from "#app/components/ui/notice.tsx";
import { NativeSelect } from "#app/components/ui/select.tsx";
import { Textarea } from "#app/components/ui/textarea.tsx";
import {
  checkBeforePost,
  SUBMISSION_KEY_FIELD,
  type FieldErrors,
  type FormAnswer,
} from "#app/lib/forms.ts";
import {
  REPLY_BODY_MAX_LENGTH,
  REPLY_SUBJECT_MAX_LENGTH,
  TEMPLATE_PARAM,
  inquiryPageHref,
  inquiryReplySchema,
  type AdminInquiryPage,
} from "#app/lib/inquiries/thread.ts";
import { echoOf, FieldError } from "./inquiry-form-parts.tsx";

/**
 * The enquiry page's reply composer (decision 0048): a template chosen by a GET (so it works
 * without JavaScript and hydrates with the same text), then subject and message, uncontrolled,
 * posted with the page's submission key.
 */
export function Composer({
  page,
  composerKey,
  answer,
}: {
  page: AdminInquiryPage;
  composerKey: string;
  answer?: FormAnswer;
}) {
  const fetcher = useFetcher<FormAnswer>();
  const navigate = useNavigate();
  const [errors, setErrors] = useState<FieldErrors>({});
  const busy = fetcher.state !== "idle";
  const { inquiry, composer } = page;
  useFormAnswer(fetcher, {
    onSuccess: () => {
      setErrors({});
      // A template chosen for this reply is done with: the next one starts empty.
      if (composer.templateId) {
        navigate(inquiryPageHref(inquiry.id), { replace: true, preventScrollReset: true });
      }
    },
    onFailure: (failed) => setErrors(failed.fieldErrors),
  });
  const echo = echoOf(answer, "reply");
  const shown = { ...echo?.errors, ...errors };
  const blocked = inquiry.spamReason
    ? "This enquiry is held as suspected spam: release it from the Inquiries list before replying."
    : null;
  return (
    <div className="mt-6 border-t border-border pt-4">
      <h3 className="text-base font-semibold">Write a reply</h3>
      <p className="mb-3 text-xs text-muted-foreground">
        Sent to {inquiry.email} from the site's address; their answer comes back to you.
      </p>
      {page.templates.length ? (
        <Form method="get" className="mb-3 flex flex-wrap items-end gap-2" aria-label="Templates">
          <div className="grid gap-1">
            <Label htmlFor="reply-template">Template</Label>
            <NativeSelect
              id="reply-template"
              name={TEMPLATE_PARAM}
              defaultValue={composer.templateId ?? ""}
              key={composer.templateId ?? ""}
            >
              <option value="">No template</option>
              {page.templates.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </NativeSelect>
          </div>
          <Button type="submit" variant="outline" size="sm">
            Use template
          </Button>
          <Link
            to="/admin/inquiries/templates"
            className="pb-2 text-sm text-primary underline-offset-4 hover:underline"
          >
            Edit templates
          </Link>
        </Form>
      ) : null}
      {blocked ? <Notice tone="error">{blocked}</Notice> : null}
      {echo?.message && !Object.keys(echo.errors).length ? (
        <Notice tone="error">{echo.message}</Notice>
      ) : null}
      <fetcher.Form
        method="post"
        key={`${composerKey}-${composer.templateId ?? ""}`}
        className="grid gap-3"
        aria-label="Reply"
        noValidate
        onSubmit={(event) => setErrors(checkBeforePost(event, inquiryReplySchema) ?? {})}
      >
        <input type="hidden" name="intent" value="reply" />
        <input type="hidden" name={SUBMISSION_KEY_FIELD} value={composerKey} />
        <div className="grid gap-1">
          <Label htmlFor="reply-subject">Subject</Label>
          <Input
            id="reply-subject"
            name="subject"
            maxLength={REPLY_SUBJECT_MAX_LENGTH}
            defaultValue={echo?.values.subject ?? composer.subject}
            aria-invalid={shown.subject ? true : undefined}
            aria-describedby={shown.subject ? "reply-subject-error" : undefined}
          />
          <FieldError id="reply-subject-error" message={shown.subject} />
        </div>
        <div className="grid gap-1">
          <Label htmlFor="reply-body">Message</Label>
          <Textarea
            id="reply-body"
            name="body"
            rows={10}
            maxLength={REPLY_BODY_MAX_LENGTH}
            defaultValue={echo?.values.body ?? composer.body}
            aria-invalid={shown.body ? true : undefined}
            aria-describedby={shown.body ? "reply-body-error" : "reply-body-hint"}
          />
          <FieldError id="reply-body-error" message={shown.body} />
          {shown.body ? null : (
            <p id="reply-body-hint" className="text-xs text-muted-foreground">
              Signed "Kind regards" with your name; their enquiry is quoted below it.
            </p>
          )}
        </div>
        <div>
          <Button type="submit" disabled={busy || Boolean(blocked)}>
            <Send aria-hidden />
            {busy ? "Sending..." : "Send reply"}
          </Button>
        </div>
      </fetcher.Form>
    </div>
  );
}
