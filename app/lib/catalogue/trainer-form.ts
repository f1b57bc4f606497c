import { z } from "zod/mini";
import { checkbox, optionalImage, optionalText, requiredText } from "../admin-form.ts";

/**
 * The admin trainer form (docs/rules.md, Catalogue and courses): the people who teach, shown on
 * the course pages they teach and on /about. Checked in the browser and again on the server.
 */

export const TRAINER_NAME_REQUIRED = "Please enter the trainer's name";
/** A short bio: the course page shows it in full under the trainer's name. */
export const MAX_TRAINER_BIO = 1500;

export const trainerFormSchema = z.object({
  name: requiredText(200, TRAINER_NAME_REQUIRED),
  role: optionalText(200),
  bio: optionalText(MAX_TRAINER_BIO),
  credentials: optionalText(2000),
  photo: optionalImage,
  remove_photo: checkbox,
});

export type TrainerFormValues = z.output<typeof trainerFormSchema>;

export interface AdminTrainer {
  id: string;
  name: string;
  role: string | null;
  bio: string | null;
  credentials: string | null;
  photoUrl: string | null;
  /** How many courses name this trainer (the delete question says so). */
  courseCount: number;
  createdAt: Date;
  updatedAt: Date;
}

/** A trainer as the public pages show them: the photo only when it may be shown. */
export interface PublicTrainer {
  id: string;
  name: string;
  role: string | null;
  bio: string | null;
  credentials: string | null;
  photoUrl: string | null;
}
