import { parseForm } from "#app/lib/forms.ts";
import {
  inquiryAssignSchema,
  inquiryNoteSchema,
  inquiryReplySchema,
  replyTemplateSchema,
} from "#app/lib/inquiries/thread.ts";
import type { AdminUser } from "../auth/guard.server.ts";
import { deleteReplyTemplate, saveReplyTemplate } from "../inquiries/reply-templates.server.ts";
import { addInquiryNote, assignInquiry, sendInquiryReply } from "../inquiries/thread.server.ts";
import type { AdminIntent } from "./admin-form.server.ts";
import { invalid, success } from "./form-post.server.ts";

/**
 * The enquiry page's forms (decision 0048): each parses with the schema the browser checked,
 * calls the thread's rules, and answers. What was typed comes back with a refusal, so a reply
 * written without JavaScript is not lost.
 */

const REPLY_FAILED = "Failed to send reply";

export function inquiryReplyIntent(inquiryId: string, admin: AdminUser) {
  return (async (form, refuse) => {
    const parsed = parseForm(form, inquiryReplySchema);
    if (!parsed.ok) {
      return invalid("reply", form, ["subject", "body"], parsed.fieldErrors, REPLY_FAILED);
    }
    const sent = await sendInquiryReply(inquiryId, parsed.value, admin);
    if (!sent.ok) {
      if (sent.reason === "not_found") return refuse(404, REPLY_FAILED);
      const why =
        sent.reason === "held"
          ? "This enquiry is held as suspected spam: release it from the Inquiries list first."
          : "This enquiry's personal details have been erased: there is no one to reply to.";
      return invalid("reply", form, ["subject", "body"], {}, why);
    }
    return success("reply", `Reply sent to the enquirer`);
  }) satisfies AdminIntent;
}

export function inquiryNoteIntent(inquiryId: string, admin: AdminUser) {
  return (async (form, refuse) => {
    const parsed = parseForm(form, inquiryNoteSchema);
    if (!parsed.ok)
      return invalid("note", form, ["text"], parsed.fieldErrors, "Failed to add note");
    if (!(await addInquiryNote(inquiryId, parsed.value.text, admin))) {
      return refuse(404, "Failed to add note");
    }
    return success("note", "Note added");
  }) satisfies AdminIntent;
}

export function inquiryAssignIntent(inquiryId: string, admin: AdminUser) {
  return (async (form, refuse) => {
    const parsed = parseForm(form, inquiryAssignSchema);
    const names = ["status", "owner", "followUpOn"];
    if (!parsed.ok) return invalid("assign", form, names, parsed.fieldErrors, "Failed to update");
    const done = await assignInquiry(inquiryId, parsed.value, admin);
    if (!done.ok) {
      if (done.reason === "not_found") return refuse(404, "Failed to update inquiry");
      return invalid("assign", form, names, { owner: "That staff member no longer exists." });
    }
    return success("assign", "Inquiry updated successfully");
  }) satisfies AdminIntent;
}

const TEMPLATE_FIELDS = ["id", "name", "subject", "body"];

export function replyTemplateIntents(admin: AdminUser) {
  return {
    saveTemplate: (async (form, refuse) => {
      const parsed = parseForm(form, replyTemplateSchema);
      if (!parsed.ok) {
        return invalid("saveTemplate", form, TEMPLATE_FIELDS, parsed.fieldErrors);
      }
      const saved = await saveReplyTemplate(parsed.value, admin);
      if (!saved.ok) {
        if (saved.reason === "not_found") return refuse(404, "That template no longer exists.");
        return invalid("saveTemplate", form, TEMPLATE_FIELDS, {
          name: "Another template has this name.",
        });
      }
      return success("saveTemplate", "Template saved");
    }) satisfies AdminIntent,
    deleteTemplate: (async (form, refuse) => {
      const id = form.get("id");
      if (typeof id !== "string" || !(await deleteReplyTemplate(id, admin))) {
        return refuse(404, "That template no longer exists.");
      }
      return success("deleteTemplate", "Template deleted");
    }) satisfies AdminIntent,
  };
}
