import { asc } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  CPD_HOURS_INVALID,
  courseFormSchema,
  TRAINERS_INVALID,
  type CourseFormInput,
} from "#app/lib/catalogue/course-form.ts";
import { parseForm } from "#app/lib/forms.ts";
import * as courseRoute from "#app/routes/courses/course.tsx";
import {
  createCourse,
  deleteCourse,
  getAdminCourse,
  listAdminCourses,
  updateCourse,
} from "#server/catalogue/course-admin.server.ts";
import { findPublishedCourse } from "#server/catalogue/courses.server.ts";
import {
  createTrainer,
  deleteTrainer,
  listCourseTrainers,
} from "#server/catalogue/trainers.server.ts";
import { InvalidInputError } from "#server/catalogue/write.server.ts";
import { trainerFormSchema } from "#app/lib/catalogue/trainer-form.ts";
import { auditLog } from "#server/db/schema.ts";
import { db } from "#server/db/client.server.ts";
import { ADMIN } from "#tests/support/admin-session.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { useTemporaryMediaStorage } from "#tests/support/media-storage.ts";

/**
 * The course fields a buyer decides from (who should attend, outcomes, prerequisites, format, CPD
 * hours, trainers): the one schema both sides run, what is saved, what the audit log records, and
 * what the public course page's loader returns — and its JSON-LD.
 */

useFreshDatabase();
useTemporaryMediaStorage("nw-course-details-");

const course = (input: CourseFormInput) => courseFormSchema.parse(input);
const trainer = (name: string, role?: string) =>
  createTrainer(trainerFormSchema.parse({ name, role, bio: `${name} teaches.` }), ADMIN);

const posted = (fields: [string, string][]) => {
  const form = new FormData();
  for (const [name, value] of fields) form.append(name, value);
  return parseForm(form, courseFormSchema);
};

const auditRows = () => db().select().from(auditLog).orderBy(asc(auditLog.at), asc(auditLog.id));

describe("the course form's buyer fields", () => {
  it("CPD hours: 0 to 99.9, one decimal; empty means none", () => {
    for (const [typed, stored] of [
      ["", null],
      ["0", "0.0"],
      ["7", "7.0"],
      ["7.5", "7.5"],
      [" 99.9 ", "99.9"],
    ] as const) {
      expect(course({ title: "T", cpd_hours: typed }).cpd_hours, typed).toBe(stored);
    }
    for (const typed of ["-1", "100", "7.25", "abc", "1e1", "7."]) {
      const parsed = posted([
        ["title", "T"],
        ["cpd_hours", typed],
      ]);
      expect(parsed, typed).toEqual({ ok: false, fieldErrors: { cpd_hours: CPD_HOURS_INVALID } });
    }
  });

  it("trainers: ids in the order chosen, empty choices dropped; a repeat or a stranger refused", () => {
    const a = crypto.randomUUID();
    const b = crypto.randomUUID();
    const parsed = posted([
      ["title", "T"],
      ["trainer_ids[0]", b],
      ["trainer_ids[1]", "none"],
      ["trainer_ids[2]", a],
      ["trainer_ids[3]", ""],
    ]);
    expect(parsed.ok && parsed.value.trainer_ids).toEqual([b, a]);
    expect(course({ title: "T" }).trainer_ids).toEqual([]);
    for (const ids of [
      [a, a],
      ["not-an-id"],
      [a, b, crypto.randomUUID(), crypto.randomUUID(), b],
    ]) {
      const refused = posted([
        ["title", "T"],
        ...ids.map((id, i): [string, string] => [`trainer_ids[${i}]`, id]),
      ]);
      expect(refused, ids.join()).toEqual({
        ok: false,
        fieldErrors: { trainer_ids: TRAINERS_INVALID },
      });
    }
  });

  it("text sections are trimmed plain text, empty → null, and bounded", () => {
    const values = course({
      title: "T",
      audience: "  Fraud investigators\n- Analysts  ",
      learning_outcomes: "",
      prerequisites: "<b>None</b>",
    });
    expect(values).toMatchObject({
      audience: "Fraud investigators\n- Analysts",
      learning_outcomes: null,
      // Stored as typed: the page renders it as text, never as markup.
      prerequisites: "<b>None</b>",
      format_details: null,
    });
    const tooLong = posted([
      ["title", "T"],
      ["format_details", "x".repeat(4001)],
    ]);
    expect(tooLong.ok).toBe(false);
  });
});

describe("saving a course's buyer fields and trainers", () => {
  it("stores them, lists the trainers in order, and audits every change", async () => {
    const ada = await trainer("Ada Lovelace", "Lead trainer");
    const alan = await trainer("Alan Turing");
    const created = await createCourse(
      course({
        title: "Fraud Investigation",
        status: "published",
        audience: "- Investigators\n- Analysts",
        learning_outcomes: "Interview skills",
        prerequisites: "None",
        format_details: "One day, lunch included",
        cpd_hours: "6.5",
        trainer_ids: [alan.id, ada.id],
      }),
      ADMIN,
    );
    expect(created).toMatchObject({
      audience: "- Investigators\n- Analysts",
      learningOutcomes: "Interview skills",
      prerequisites: "None",
      formatDetails: "One day, lunch included",
      cpdHours: "6.5",
      trainerIds: [alan.id, ada.id],
    });
    expect((await listCourseTrainers(created.id)).map((t) => t.name)).toEqual([
      "Alan Turing",
      "Ada Lovelace",
    ]);
    const createdRow = (await auditRows()).find((r) => r.action === "course.create")!;
    expect(createdRow.after).toMatchObject({
      audience: "- Investigators\n- Analysts",
      cpdHours: "6.5",
      trainerIds: [alan.id, ada.id],
    });

    // Reordered trainers and a new CPD figure: the update row holds exactly those changes.
    await updateCourse(
      created.id,
      course({
        title: "Fraud Investigation",
        status: "published",
        audience: "- Investigators\n- Analysts",
        learning_outcomes: "Interview skills",
        prerequisites: "None",
        format_details: "One day, lunch included",
        cpd_hours: "7",
        trainer_ids: [ada.id, alan.id],
      }),
      ADMIN,
    );
    const updateRow = (await auditRows()).find((r) => r.action === "course.update")!;
    expect(updateRow.before).toEqual({ cpdHours: "6.5", trainerIds: [alan.id, ada.id] });
    expect(updateRow.after).toEqual({ cpdHours: "7.0", trainerIds: [ada.id, alan.id] });
    expect((await getAdminCourse(created.id))!.trainerIds).toEqual([ada.id, alan.id]);
    expect((await listAdminCourses())[0]!.trainerIds).toEqual([ada.id, alan.id]);

    // Emptied: back to nothing, and a trainer deleted leaves the course's other trainer.
    await deleteTrainer(ada.id, ADMIN);
    expect((await getAdminCourse(created.id))!.trainerIds).toEqual([alan.id]);

    await deleteCourse(created.id, ADMIN);
    const deleteRow = (await auditRows()).find((r) => r.action === "course.delete")!;
    expect(deleteRow.before).toMatchObject({ cpdHours: "7.0", trainerIds: [alan.id] });
  });

  it("a trainer deleted while the form was open is a field message; nothing is saved", async () => {
    const gone = await trainer("Gone Person");
    await deleteTrainer(gone.id, ADMIN);
    const error = await createCourse(
      course({ title: "Orphan", trainer_ids: [gone.id] }),
      ADMIN,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as InvalidInputError).errors).toEqual({ trainer_ids: TRAINERS_INVALID });
    expect(await listAdminCourses()).toEqual([]);
    expect((await auditRows()).filter((r) => r.action === "course.create")).toEqual([]);
  });

  it("saving the same values again writes no audit row", async () => {
    const ada = await trainer("Ada Lovelace");
    const values = course({ title: "Same", cpd_hours: "3", trainer_ids: [ada.id] });
    const created = await createCourse(values, ADMIN);
    await updateCourse(created.id, values, ADMIN);
    expect((await auditRows()).filter((r) => r.action === "course.update")).toEqual([]);
  });
});

describe("the public course page", () => {
  const load = (slug: string) =>
    courseRoute.loader({
      params: { slug },
      request: new Request(`http://x/courses/${slug}`),
      context: {},
    } as never);

  it("returns the buyer fields, CPD hours and trainers (photo only when showable) of a published course", async () => {
    const ada = await trainer("Ada Lovelace", "Lead trainer");
    await db().execute(
      `update trainers set photo_url = 'javascript:alert(1)' where id = '${ada.id}'`,
    );
    await createCourse(
      course({
        title: "Buyer Course",
        status: "published",
        audience: "Investigators",
        cpd_hours: "7.5",
        trainer_ids: [ada.id],
      }),
      ADMIN,
    );
    const found = await findPublishedCourse("buyer-course");
    expect(found.kind === "found" && found.course).toMatchObject({
      audience: "Investigators",
      learningOutcomes: null,
      cpdHours: "7.5",
    });

    const data = await load("buyer-course");
    expect(data.course.details).toEqual({
      audience: "Investigators",
      learningOutcomes: null,
      prerequisites: null,
      formatDetails: null,
    });
    expect(data.course.cpdLabel).toBe("7.5 hours");
    expect(data.trainers).toEqual([
      {
        id: ada.id,
        name: "Ada Lovelace",
        role: "Lead trainer",
        bio: "Ada Lovelace teaches.",
        credentials: null,
        photoUrl: null,
      },
    ]);
  });

  it("names each trainer as the instructor of every dated run in its JSON-LD", () => {
    const trainers = [
      {
        id: "1",
        name: "Ada Lovelace",
        role: "Lead trainer",
        bio: null,
        credentials: null,
        photoUrl: null,
      },
    ];
    const loaderData = {
      course: {
        id: "c",
        slug: "s",
        title: "T",
        shortDescription: null,
        shareImage: { url: "/x.png" },
        picture: { generated: false },
        price: "100.00",
        durationHours: 7,
      },
      dates: [
        {
          id: "d",
          format: "online",
          startsAt: "2030-01-01T09:00:00.000Z",
          endsAt: "2030-01-01T17:00:00.000Z",
          unitPriceCents: 10000,
          bookable: true,
          venueName: null,
          town: null,
        },
      ],
      trainers,
    };
    const meta = courseRoute.meta({
      loaderData,
      location: { pathname: "/courses/s" },
      matches: [],
      params: {},
      data: loaderData,
    } as never);
    const ld = meta.find((m) => m && typeof m === "object" && "script:ld+json" in m) as
      { "script:ld+json": Record<string, unknown> } | undefined;
    const course = ld!["script:ld+json"] as {
      timeRequired: string;
      hasCourseInstance: { instructor: unknown }[];
    };
    expect(course.timeRequired).toBe("PT7H");
    expect(course.hasCourseInstance[0]!.instructor).toEqual([
      { "@type": "Person", name: "Ada Lovelace", description: "Lead trainer" },
    ]);
  });
});
