import { z } from "zod/mini";
import { optionalText, requiredText } from "../admin-form.ts";
import { slugField } from "./course-form.ts";

/** The admin category form. An empty slug is generated from the name (docs/rules.md, Catalogue and
 * courses). */

export const NAME_REQUIRED = "Please enter a name";

export const categoryFormSchema = z.object({
  name: requiredText(120, NAME_REQUIRED),
  slug: slugField,
  description: optionalText(2000),
});

export type CategoryFormValues = z.output<typeof categoryFormSchema>;

export interface AdminCategory {
  id: string;
  name: string;
  slug: string;
  description: string | null;
  createdAt: Date;
}
