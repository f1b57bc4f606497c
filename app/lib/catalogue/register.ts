import { z } from "zod/mini";
import { safeParse } from "zod/v4/core";
import type { PlaceCertificate } from "./certificates.ts";
import type { CourseDateFormat } from "./course-dates.ts";

/**
 * A date's register (decision 0035): who holds its booked places, and whether each attended.
 * The attendance form's one schema (the browser and the server read it), its posted names, and
 * what the screen says. Safe on both sides: no server imports here.
 */

export const ATTENDANCE = ["present", "absent", "partial"] as const;
export type Attendance = (typeof ATTENDANCE)[number];

export const ATTENDANCE_LABELS: Record<Attendance, string> = {
  present: "Present",
  absent: "Absent",
  partial: "Partial",
};

export const registerPath = (dateId: string) => `/admin/dates/${dateId}/register`;
export const registerCsvPath = (dateId: string) => `${registerPath(dateId)}/csv`;
export const signInSheetPath = (dateId: string) => `${registerPath(dateId)}/sign-in-sheet`;

/** One booked place on the register. */
export interface RegisterPlace {
  orderId: string;
  /** The place within its order, from 1; the buyer attending themself is place 1. */
  position: number;
  /** Null while the booker has not named this place's student yet. */
  name: string | null;
  email: string | null;
  organisation: string | null;
  orderReference: string;
  /** 'Paid', 'Invoiced', 'Awaiting payment'. */
  payment: string;
  attendance: Attendance | null;
  /** The place's latest certificate of attendance (decision 0036), valid or revoked. */
  certificate: (PlaceCertificate & { id: string }) | null;
}

export interface DateRegister {
  date: {
    id: string;
    courseTitle: string;
    startsAt: string;
    endsAt: string;
    format: CourseDateFormat;
    venueName: string | null;
    venueTown: string | null;
    capacity: number;
    state: "scheduled" | "cancelled" | "completed";
  };
  places: RegisterPlace[];
  /** Attendance can be marked from the day the date starts (UK time) unless it was cancelled. */
  markable: boolean;
  /** The date has ended and was not cancelled: certificates can be issued. */
  ended: boolean;
}

/** A place's radio group: `attendance:<order id>:<position>`, its value the attendance. */
export const placeFieldName = (place: Pick<RegisterPlace, "orderId" | "position">) =>
  `attendance:${place.orderId}:${place.position}`;

const PLACE_FIELD = /^attendance:([0-9a-f-]{36}):(\d{1,2})$/;

export const REGISTER_MESSAGES = {
  saved: "Attendance saved",
  failed: "Could not save the attendance",
  notYet: "Attendance can be marked from the day the course starts.",
  cancelled: "This date was cancelled: there is no attendance to mark.",
  unknownPlace: "The register has changed since it was opened: reload it and mark again.",
  nothingMarked: "Mark at least one student before saving.",
} as const;

/** The marks posted: one per place whose radio group was set. */
export const attendanceSchema = z.object({
  marks: z
    .array(
      z.object({
        orderId: z.uuid({ error: REGISTER_MESSAGES.unknownPlace }),
        position: z
          .int({ error: REGISTER_MESSAGES.unknownPlace })
          .check(
            z.minimum(1, REGISTER_MESSAGES.unknownPlace),
            z.maximum(10, REGISTER_MESSAGES.unknownPlace),
          ),
        status: z.enum(ATTENDANCE, { error: REGISTER_MESSAGES.unknownPlace }),
      }),
    )
    .check(
      z.minLength(1, REGISTER_MESSAGES.nothingMarked),
      z.maxLength(1000, REGISTER_MESSAGES.unknownPlace),
    ),
});

export type AttendanceMarks = z.output<typeof attendanceSchema>["marks"];

/** The posted attendance form, checked by its schema: the marks, or the first message. */
export function parseAttendance(
  form: FormData,
): { ok: true; marks: AttendanceMarks } | { ok: false; message: string } {
  const result = safeParse(attendanceSchema, attendanceInput(form));
  if (result.success) return { ok: true, marks: result.data.marks };
  return { ok: false, message: result.error.issues[0]?.message ?? REGISTER_MESSAGES.failed };
}

/**
 * The attendance form's marks as the schema reads them. The radio groups are named per place
 * (a register may hold more places than a form list may have items), so they are collected
 * here rather than as an indexed list.
 */
export function attendanceInput(form: FormData): { marks: unknown[] } {
  const marks: unknown[] = [];
  for (const [name, value] of form) {
    const match = PLACE_FIELD.exec(name);
    if (!match) continue;
    marks.push({ orderId: match[1], position: Number(match[2]), status: value });
  }
  return { marks };
}
