import {
  TextareaField,
  TextField,
  type CatalogueFormFields,
} from "#app/components/forms/fields.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { NativeSelect } from "#app/components/ui/select.tsx";
import {
  MAX_COURSE_TRAINERS,
  MAX_DETAIL_LENGTH,
  type AdminCourse,
  type CourseFormInput,
} from "#app/lib/catalogue/course-form.ts";

/**
 * The course form's part a buyer decides from (app/routes/admin/courses.tsx): who should attend,
 * what they will learn, prerequisites, format and what's included, CPD hours and the trainers in
 * order. Plain text: a line starting with "- " shows as a bullet on the course page.
 */

type Option = { id: string; name: string };
type Name = Extract<keyof CourseFormInput, string>;

const LIST_HINT = 'One point a line; start a line with "- " for a bullet.';

export function CourseBuyerFields({
  form,
  course,
  trainers,
}: {
  form: CatalogueFormFields<Name>;
  course: AdminCourse | null;
  trainers: Option[];
}) {
  const chosen = course?.trainerIds ?? [];
  // One choice per place, up to the limit; never fewer than the course already names.
  const places = Math.max(chosen.length, Math.min(MAX_COURSE_TRAINERS, trainers.length));
  const errorId = `${form.id("trainer_ids")}-error`;
  const error = form.errors.trainer_ids;
  return (
    <>
      <TextareaField
        form={form}
        name="audience"
        label="Who should attend"
        hint={LIST_HINT}
        rows={3}
        maxLength={MAX_DETAIL_LENGTH}
        defaultValue={course?.audience ?? ""}
      />
      <TextareaField
        form={form}
        name="learning_outcomes"
        label="What you will learn"
        hint={LIST_HINT}
        rows={4}
        maxLength={MAX_DETAIL_LENGTH}
        defaultValue={course?.learningOutcomes ?? ""}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextareaField
          form={form}
          name="prerequisites"
          label="Prerequisites"
          rows={3}
          maxLength={MAX_DETAIL_LENGTH}
          defaultValue={course?.prerequisites ?? ""}
        />
        <TextareaField
          form={form}
          name="format_details"
          label="Format and what's included"
          rows={3}
          maxLength={MAX_DETAIL_LENGTH}
          defaultValue={course?.formatDetails ?? ""}
        />
      </div>
      <TextField
        form={form}
        name="cpd_hours"
        label="CPD hours"
        hint="0 to 99.9; leave empty when the course gives none"
        type="number"
        min="0"
        max="99.9"
        step="0.1"
        inputMode="decimal"
        defaultValue={course?.cpdHours ?? ""}
      />
      {places > 0 ? (
        <fieldset
          className="grid min-w-0 gap-2"
          aria-describedby={error ? errorId : undefined}
          id={form.id("trainer_ids")}
        >
          <legend className="mb-2 text-sm leading-none font-medium">Trainers</legend>
          <p className="text-xs text-muted-foreground">
            In the order the course page shows them. Add people on the Trainers screen.
          </p>
          <div className="grid gap-3 sm:grid-cols-2">
            {Array.from({ length: places }, (_, place) => {
              const selectId = `${form.id("trainer_ids")}-${place}`;
              return (
                <div key={place} className="grid gap-2">
                  <Label htmlFor={selectId}>Trainer {place + 1}</Label>
                  <NativeSelect
                    id={selectId}
                    name={`trainer_ids[${place}]`}
                    defaultValue={chosen[place] ?? "none"}
                    aria-invalid={error ? true : undefined}
                  >
                    <option value="none">None</option>
                    {trainers.map((trainer) => (
                      <option key={trainer.id} value={trainer.id}>
                        {trainer.name}
                      </option>
                    ))}
                  </NativeSelect>
                </div>
              );
            })}
          </div>
          {error ? (
            <p id={errorId} className="text-sm text-destructive" role="alert">
              {error}
            </p>
          ) : null}
        </fieldset>
      ) : null}
    </>
  );
}
