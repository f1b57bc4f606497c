import { z } from "zod/mini";
import { checkbox, optionalText } from "../admin-form.ts";
import type { PublicTrainer } from "../catalogue/trainer-form.ts";

/**
 * The About profile (/about, docs/rules.md, Catalogue and courses): what staff write about the
 * provider — its story, accreditations and partner bodies — and whether /about shows it. The
 * form's schema runs in the browser and again on the server. Safe on both sides.
 */

export const STORY_REQUIRED_TO_PUBLISH = "Please write the story before publishing the page";

export const aboutFormSchema = z
  .object({
    story: optionalText(10_000),
    accreditations: optionalText(4000),
    partner_bodies: optionalText(4000),
    published: checkbox,
  })
  .check(
    z.refine((values) => !values.published || values.story !== null, {
      message: STORY_REQUIRED_TO_PUBLISH,
      path: ["story"],
    }),
  );

export type AboutFormValues = z.output<typeof aboutFormSchema>;

/** The profile as the admin edits it (an empty draft before anything was saved). */
export interface AdminAboutProfile {
  published: boolean;
  story: string | null;
  accreditations: string | null;
  partnerBodies: string | null;
  updatedAt: Date | null;
}

/** What /about shows: 'Coming Soon' until published; then only what staff entered. */
export type PublicAboutPage =
  | { published: false }
  | {
      published: true;
      story: string;
      accreditations: string | null;
      partnerBodies: string | null;
      trainers: PublicTrainer[];
    };
