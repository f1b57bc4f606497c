import { z } from "zod/mini";
import { isSlug } from "./slug.ts";
import {
  checkbox,
  optionalId,
  optionalImage,
  optionalText,
  optionalUrl,
  requiredText,
} from "../admin-form.ts";

/** The admin course form (docs/rules.md, Catalogue and courses), checked in the browser and on the
 * server. */

export const COURSE_STATUSES = ["draft", "published", "archived"] as const;
export type CourseStatus = (typeof COURSE_STATUSES)[number];
export const COURSE_STATUS_LABELS: Record<CourseStatus, string> = {
  draft: "Draft",
  published: "Published",
  archived: "Archived",
};

export const DELIVERY_TYPES = ["online", "classroom"] as const;
export type DeliveryType = (typeof DELIVERY_TYPES)[number];
export const DELIVERY_TYPE_LABELS: Record<DeliveryType, string> = {
  online: "Online",
  classroom: "Classroom",
};

export const GROUP_TYPES = ["individual", "group"] as const;
export type GroupType = (typeof GROUP_TYPES)[number];
export const GROUP_TYPE_LABELS: Record<GroupType, string> = {
  individual: "Individual",
  group: "Group",
};

/** numeric(10,2): up to 99,999,999.99. */
const MAX_PRICE = 99_999_999.99;
export const MAX_DURATION_HOURS = 10_000;
/** Course content HTML; generous, but a bound (the editor stores images as URLs, not data). */
export const MAX_CONTENT_LENGTH = 200_000;

export const TITLE_REQUIRED = "Please enter a title";
export const PRICE_INVALID = "Please enter a price of 0 or more, with at most 2 decimal places";
export const DURATION_INVALID = "Please enter the duration as a whole number of hours";
export const SLUG_INVALID = "Please use letters, numbers and hyphens only";
export const CPD_HOURS_INVALID =
  "Please enter CPD hours from 0 to 99.9, with at most 1 decimal place";
export const TRAINERS_INVALID = "Please choose each trainer from the list, once";

/** numeric(4,1): up to 99.9 CPD hours. */
export const MAX_CPD_HOURS = 99.9;
/** How many trainers a course names (the form offers this many choices). */
export const MAX_COURSE_TRAINERS = 4;
/** Each of the buyer's sections (who should attend, outcomes, prerequisites, format). */
export const MAX_DETAIL_LENGTH = 4000;

/** Price: empty → null (shown as 'Free'); otherwise ≥ 0 in steps of 0.01, stored as '12.50'. */
const price = z.pipe(
  trimmedText().check(
    z.refine(
      (v) => v === "" || (/^\d+(?:\.\d{1,2})?$/.test(v) && Number(v) <= MAX_PRICE),
      PRICE_INVALID,
    ),
  ),
  z.transform((v: string) => (v === "" ? null : Number(v).toFixed(2))),
);

/** Duration: empty → null; otherwise whole hours. */
const durationHours = z.pipe(
  trimmedText().check(
    z.refine(
      (v) => v === "" || (/^\d+$/.test(v) && Number(v) <= MAX_DURATION_HOURS),
      DURATION_INVALID,
    ),
  ),
  z.transform((v: string) => (v === "" ? null : Number(v))),
);

/** CPD hours: empty → null; otherwise 0–99.9 in steps of 0.1, stored as '7.5'. */
const cpdHours = z.pipe(
  trimmedText().check(
    z.refine(
      (v) => v === "" || (/^\d{1,2}(?:\.\d)?$/.test(v) && Number(v) <= MAX_CPD_HOURS),
      CPD_HOURS_INVALID,
    ),
  ),
  z.transform((v: string) => (v === "" ? null : Number(v).toFixed(1))),
);

/**
 * The course's trainers in the order chosen (`trainer_ids[0]`, `trainer_ids[1]`, …): empty
 * choices dropped, each a trainer id, none twice, at most MAX_COURSE_TRAINERS.
 */
const uuid = z.uuid();
const trainerIds = z
  .pipe(
    z.pipe(
      z.optional(z.union([z.array(z.optional(z.string())), z.string()])),
      z.transform((v: (string | undefined)[] | string | undefined) =>
        (Array.isArray(v) ? v : v === undefined ? [] : [v])
          .map((id) => (id ?? "").trim().toLowerCase())
          .filter((id) => id !== "" && id !== "none"),
      ),
    ),
    z.array(z.string()),
  )
  .check(
    z.refine(
      (ids) =>
        ids.length <= MAX_COURSE_TRAINERS &&
        new Set(ids).size === ids.length &&
        ids.every((id) => z.safeParse(uuid, id).success),
      TRAINERS_INVALID,
    ),
  );

/**
 * Slug: optional (generated from the title when empty). What is typed is kept as typed, apart
 * from letter case and surrounding spaces; anything beyond a–z, 0–9 and single hyphens is refused
 * rather than silently rewritten.
 */
export const slugField = z.pipe(
  z
    .pipe(
      z.optional(z.string()),
      z.transform((v: string | undefined) => (v ?? "").trim().toLowerCase()),
    )
    .check(z.refine((v) => v === "" || (v.length <= 120 && isSlug(v)), SLUG_INVALID)),
  z.transform((v: string) => (v === "" ? null : v)),
);

/** An optional text field, trimmed ('' when absent). */
function trimmedText() {
  return z.pipe(
    z.optional(z.string()),
    z.transform((v: string | undefined) => (v ?? "").trim()),
  );
}

function choice<T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) {
  return z.pipe(
    z.pipe(
      trimmedText(),
      z.transform((v: string) => (v === "" ? fallback : v)),
    ),
    z.enum(values, { error: "Please choose one of the options" }),
  );
}

export const courseFormSchema = z.object({
  title: requiredText(200, TITLE_REQUIRED),
  slug: slugField,
  short_description: optionalText(500),
  description: optionalText(10_000),
  content: optionalText(MAX_CONTENT_LENGTH),
  price,
  duration_hours: durationHours,
  status: choice(COURSE_STATUSES, "draft"),
  delivery_type: choice(DELIVERY_TYPES, "online"),
  group_type: z.pipe(
    z.pipe(
      trimmedText(),
      z.transform((v: string) => (v === "" || v === "none" ? null : v)),
    ),
    z.nullable(z.enum(GROUP_TYPES, { error: "Please choose one of the options" })),
  ),
  category_id: optionalId("Please choose a category from the list"),
  partner_id: optionalId("Please choose a partner from the list"),
  external_link: optionalUrl(),
  featured: checkbox,
  thumbnail: optionalImage,
  remove_thumbnail: checkbox,
  audience: optionalText(MAX_DETAIL_LENGTH),
  learning_outcomes: optionalText(MAX_DETAIL_LENGTH),
  prerequisites: optionalText(MAX_DETAIL_LENGTH),
  format_details: optionalText(MAX_DETAIL_LENGTH),
  cpd_hours: cpdHours,
  trainer_ids: trainerIds,
});

export type CourseFormInput = z.input<typeof courseFormSchema>;
export type CourseFormValues = z.output<typeof courseFormSchema>;

/** A course as the admin list and form show it. */
export interface AdminCourse {
  id: string;
  slug: string;
  title: string;
  shortDescription: string | null;
  description: string | null;
  content: string | null;
  thumbnailUrl: string | null;
  price: string | null;
  durationHours: number | null;
  status: CourseStatus;
  deliveryType: string;
  groupType: string | null;
  featured: boolean;
  categoryId: string | null;
  categoryName: string | null;
  partnerId: string | null;
  partnerName: string | null;
  externalLink: string | null;
  audience: string | null;
  learningOutcomes: string | null;
  prerequisites: string | null;
  formatDetails: string | null;
  /** numeric(4,1) as text, e.g. '7.5'. */
  cpdHours: string | null;
  /** The course's trainers, in the order the page shows them. */
  trainerIds: string[];
  createdAt: Date;
  updatedAt: Date;
}
