import { z } from "zod/mini";

/**
 * Access details of an on-demand course: staff send each student their login or link, by the
 * site's e-mail from a template they complete, or record that they sent it another way. The
 * form's one schema (browser and server), its names and messages. No server imports here.
 */

export const ACCESS_INTENT = "access";
export const ACCESS_TEXT_MAX = 5000;

export const ACCESS_MESSAGES = {
  emailed: "Access details e-mailed",
  recorded: "Access details recorded as sent",
  failed: "Could not record the access details",
  textMissing: "Please write the access details to send",
  notOffered: "Access details are sent for paid on-demand orders only.",
  unknownPlace: "There is no such student on this order: reload the page.",
} as const;

/** One place's access details as the order page shows them. */
export interface AccessDetailsSent {
  sentAt: string;
  sentBy: string;
  emailed: boolean;
}

export const accessDetailsSchema = z
  .object({
    position: z.string().check(z.regex(/^(10|[1-9])$/, ACCESS_MESSAGES.unknownPlace)),
    mode: z.enum(["email", "record"], { error: ACCESS_MESSAGES.failed }),
    text: z.optional(z.string().check(z.trim(), z.maxLength(ACCESS_TEXT_MAX))),
  })
  .check(
    z.superRefine((v, ctx) => {
      if (v.mode === "email" && !v.text) {
        ctx.addIssue({ code: "custom", path: ["text"], message: ACCESS_MESSAGES.textMissing });
      }
    }),
  );

/** The e-mail's starting text: the student's name and course, the details left for staff. */
export function accessTemplate(student: string, courseTitle: string): string {
  return [
    `Dear ${student},`,
    "",
    `Your place on ${courseTitle} is ready. Here are your access details:`,
    "",
    "Link: ",
    "Username: ",
    "",
    "The course is yours to follow at your own pace. If anything does not work, reply to this e-mail.",
  ].join("\n");
}
