import { CalendarDays, ExternalLink, FolderTree, Handshake, Star } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/courses";
import { RichTextEditor, richTextEditorLinks } from "#app/components/admin/rich-text-editor.tsx";
import { CourseBuyerFields } from "#app/components/admin/catalogue/course-buyer-fields.tsx";
import {
  formatAdminDate,
  CatalogueCard,
  CatalogueFormDialog,
  CataloguePage,
  useCatalogueForm,
} from "#app/components/admin/catalogue/catalogue-page.tsx";
import {
  SelectField,
  TextareaField,
  TextField,
  unreadableNumbers,
  URL_INPUT,
} from "#app/components/forms/fields.tsx";
import { ImageInput } from "#app/components/forms/image-field.tsx";
import { Badge, type BadgeVariant } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Checkbox } from "#app/components/ui/checkbox.tsx";
import { SelectOptions } from "#app/components/ui/select.tsx";
import { TableCell, TableHead } from "#app/components/ui/table.tsx";
import {
  COURSE_STATUS_LABELS,
  COURSE_STATUSES,
  courseFormSchema,
  DELIVERY_TYPE_LABELS,
  DELIVERY_TYPES,
  GROUP_TYPE_LABELS,
  GROUP_TYPES,
  type AdminCourse,
  type CourseStatus,
} from "#app/lib/catalogue/course-form.ts";
import { formatPrice } from "#app/lib/format.ts";
import { adminMeta } from "#app/lib/admin/nav.ts";
import { signedInAdmin } from "#server/auth/guard.server.ts";
import { listCategoryOptions } from "#server/catalogue/categories.server.ts";
import { adminFormAction } from "#server/forms/admin-form.server.ts";
import { catalogueForm } from "#server/forms/catalogue-intents.server.ts";
import {
  createCourse,
  deleteCourse,
  listAdminCourses,
  updateCourse,
} from "#server/catalogue/course-admin.server.ts";
import { listPartnerOptions } from "#server/catalogue/partners.server.ts";
import { listTrainerOptions } from "#server/catalogue/trainers.server.ts";
import { keepFormOnFailure } from "#app/lib/forms.ts";

export const links: Route.LinksFunction = () => richTextEditorLinks();

export const meta: Route.MetaFunction = () => adminMeta("Courses");

export async function loader() {
  const [courses, categories, partners, trainers] = await Promise.all([
    listAdminCourses(),
    listCategoryOptions(),
    listPartnerOptions(),
    listTrainerOptions(),
  ]);
  return { courses, categories, partners, trainers };
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = signedInAdmin(context);
  const { screen, intents } = catalogueForm(admin, {
    entity: "course",
    schema: courseFormSchema,
    imageField: "thumbnail",
    messages: {
      created: "Course created successfully",
      updated: "Course updated successfully",
      deleted: "Course deleted successfully",
      saveFailed: "Failed to save course",
      deleteFailed: "Failed to delete course",
    },
    create: createCourse,
    update: updateCourse,
    remove: deleteCourse,
  });
  return adminFormAction(request, screen, intents);
}

export const clientAction = keepFormOnFailure;

const STATUS_BADGE: Record<CourseStatus, BadgeVariant> = {
  published: "success",
  draft: "warning",
  archived: "muted",
};

type Option = { id: string; name: string };

export default function AdminCourses({ loaderData }: Route.ComponentProps) {
  const { courses, categories, partners, trainers } = loaderData;
  return (
    <CataloguePage
      noun="Course"
      plural="Courses"
      title="Course Management"
      description="Create, edit and publish training courses. Only published courses appear on the site."
      items={courses}
      emptyText="No courses yet. Add your first course to get started."
      deleteQuestion="Are you sure you want to delete this course?"
      links={
        <>
          <Button asChild variant="outline">
            <Link to="/admin/categories">
              <FolderTree aria-hidden /> Categories
            </Link>
          </Button>
          <Button asChild variant="outline">
            <Link to="/admin/partners">
              <Handshake aria-hidden /> Partners
            </Link>
          </Button>
        </>
      }
      columns={
        <>
          <TableHead className="w-10">
            <span className="sr-only">Featured</span>
          </TableHead>
          <TableHead>Title</TableHead>
          <TableHead>Category</TableHead>
          <TableHead>Status</TableHead>
          <TableHead>Price</TableHead>
          <TableHead>Duration</TableHead>
          <TableHead>Created</TableHead>
        </>
      }
      cells={(course) => <CourseCells course={course} />}
      card={(course) => <CourseCard course={course} />}
      label={(course) => course.title}
      rowAttributes={(course) => ({ "data-course-id": course.id })}
      moreActions={(course) => (
        <>
          {/* The course's dates (decision 0033): the Dates screen for this course alone. */}
          <Button asChild variant="ghost" size="icon">
            <Link
              to={`/admin/dates?course=${course.id}`}
              aria-label={`Dates of ${course.title}`}
              title="Dates"
            >
              <CalendarDays aria-hidden />
            </Link>
          </Button>
          {course.externalLink ? (
            <Button asChild variant="ghost" size="icon">
              <a
                href={course.externalLink}
                target="_blank"
                rel="noopener noreferrer"
                aria-label={`Open external link for ${course.title} (opens in a new tab)`}
                title="Open external link"
              >
                <ExternalLink aria-hidden />
              </a>
            </Button>
          ) : null}
        </>
      )}
      form={(course, onSaved) => (
        <CourseFormDialog
          course={course}
          categories={categories}
          partners={partners}
          trainers={trainers}
          onSaved={onSaved}
        />
      )}
    />
  );
}

function CourseCells({ course }: { course: AdminCourse }) {
  return (
    <>
      <TableCell>
        {course.featured ? (
          <Star className="size-4 fill-warning text-warning" aria-label="Featured" role="img" />
        ) : null}
      </TableCell>
      <TableCell className="max-w-md">
        <div className="font-medium">{course.title}</div>
        {course.shortDescription ? (
          <div className="line-clamp-2 text-xs text-muted-foreground">
            {course.shortDescription}
          </div>
        ) : null}
        {course.partnerName ? (
          <div className="mt-1 text-xs text-muted-foreground">Partner: {course.partnerName}</div>
        ) : null}
      </TableCell>
      <TableCell>
        {course.categoryName ?? <span className="text-muted-foreground">Uncategorised</span>}
      </TableCell>
      <TableCell>
        <Badge variant={STATUS_BADGE[course.status]}>{COURSE_STATUS_LABELS[course.status]}</Badge>
      </TableCell>
      <TableCell className="whitespace-nowrap">{formatPrice(course.price) ?? "Free"}</TableCell>
      <TableCell className="whitespace-nowrap">
        {course.durationHours === null ? "—" : `${course.durationHours}h`}
      </TableCell>
      <TableCell className="whitespace-nowrap">{formatAdminDate(course.createdAt)}</TableCell>
    </>
  );
}

function CourseCard({ course }: { course: AdminCourse }) {
  return (
    <CatalogueCard
      title={course.title}
      marker={
        course.featured ? (
          <Star
            className="mt-0.5 size-4 shrink-0 fill-warning text-warning"
            aria-label="Featured"
            role="img"
          />
        ) : null
      }
      facts={[
        [
          "Status",
          <Badge key="status" variant={STATUS_BADGE[course.status]}>
            {COURSE_STATUS_LABELS[course.status]}
          </Badge>,
        ],
        ["Category", course.categoryName ?? "Uncategorised"],
        ...(course.partnerName ? [["Partner", course.partnerName] as [string, string]] : []),
        ["Price", formatPrice(course.price) ?? "Free"],
        ["Duration", course.durationHours === null ? "—" : `${course.durationHours}h`],
        ["Created", formatAdminDate(course.createdAt)],
      ]}
    >
      {course.shortDescription ? (
        <p className="line-clamp-2 text-sm text-muted-foreground">{course.shortDescription}</p>
      ) : null}
    </CatalogueCard>
  );
}

function CourseFormDialog({
  course,
  categories,
  partners,
  trainers,
  onSaved,
}: {
  course: AdminCourse | null;
  categories: Option[];
  partners: Option[];
  trainers: Option[];
  onSaved: () => void;
}) {
  const form = useCatalogueForm({
    schema: courseFormSchema,
    onSaved,
    extraErrors: unreadableNumbers,
  });
  const { errors, id } = form;

  return (
    <CatalogueFormDialog
      form={form}
      noun="Course"
      item={course}
      title={course ? "Edit Course" : "Add Course"}
      description={
        course
          ? "Change the course's details. Published changes show on the site straight away."
          : "New courses start as drafts unless you choose another status."
      }
      className="sm:max-w-3xl"
      multipart
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          form={form}
          name="title"
          label="Title"
          defaultValue={course?.title ?? ""}
          maxLength={200}
          required
        />
        <TextField
          form={form}
          name="slug"
          label="Slug"
          hint="Optional: made from the title when left empty"
          defaultValue={course?.slug ?? ""}
          placeholder="e.g. intro-to-counter-fraud"
          maxLength={120}
        />
      </div>
      <TextField
        form={form}
        name="short_description"
        label="Short description"
        defaultValue={course?.shortDescription ?? ""}
        maxLength={500}
      />
      <TextareaField
        form={form}
        name="description"
        label="Description"
        defaultValue={course?.description ?? ""}
      />
      <div className="grid gap-2">
        <span className="text-sm leading-none font-medium" id={`${id("content")}-label`}>
          Content
        </span>
        <RichTextEditor
          name="content"
          defaultValue={course?.content}
          labelId={`${id("content")}-label`}
          describedBy={errors.content ? `${id("content")}-error` : undefined}
          invalid={Boolean(errors.content)}
        />
        {errors.content ? (
          <p id={`${id("content")}-error`} className="text-sm text-destructive" role="alert">
            {errors.content}
          </p>
        ) : null}
      </div>
      <CourseBuyerFields form={form} course={course} trainers={trainers} />
      <ImageInput
        name="thumbnail"
        removeName="remove_thumbnail"
        label="Thumbnail"
        currentUrl={course?.thumbnailUrl ?? null}
        error={errors.thumbnail}
        previewAlt="Thumbnail preview"
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          form={form}
          name="price"
          label="Price (£)"
          hint="Leave empty for none (shown as Free)"
          type="number"
          min="0"
          step="0.01"
          inputMode="decimal"
          defaultValue={course?.price ?? ""}
        />
        <TextField
          form={form}
          name="duration_hours"
          label="Duration (hours)"
          type="number"
          min="0"
          step="1"
          inputMode="numeric"
          defaultValue={course?.durationHours ?? ""}
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-3">
        <SelectField
          form={form}
          name="status"
          label="Status"
          defaultValue={course?.status ?? "draft"}
        >
          <SelectOptions values={COURSE_STATUSES} labels={COURSE_STATUS_LABELS} />
        </SelectField>
        <SelectField
          form={form}
          name="delivery_type"
          label="Delivery type"
          defaultValue={course?.deliveryType ?? "online"}
        >
          <SelectOptions values={DELIVERY_TYPES} labels={DELIVERY_TYPE_LABELS} />
        </SelectField>
        <SelectField
          form={form}
          name="group_type"
          label="Group type"
          defaultValue={course?.groupType ?? "none"}
        >
          <option value="none">Not set</option>
          <SelectOptions values={GROUP_TYPES} labels={GROUP_TYPE_LABELS} />
        </SelectField>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          form={form}
          name="category_id"
          label="Category"
          defaultValue={course?.categoryId ?? "none"}
        >
          <option value="none">Uncategorised</option>
          <NamedOptions items={categories} />
        </SelectField>
        <SelectField
          form={form}
          name="partner_id"
          label="Partner"
          defaultValue={course?.partnerId ?? "none"}
        >
          <option value="none">None (NightWatch exclusive)</option>
          <NamedOptions items={partners} />
        </SelectField>
      </div>
      <TextField
        form={form}
        name="external_link"
        label="External link"
        {...URL_INPUT}
        defaultValue={course?.externalLink ?? ""}
      />
      <div className="flex items-center gap-2">
        <Checkbox
          id={id("featured")}
          name="featured"
          value="on"
          defaultChecked={course?.featured ?? false}
        />
        <label htmlFor={id("featured")} className="text-sm font-medium">
          Featured course
        </label>
      </div>
    </CatalogueFormDialog>
  );
}

/** A category's or partner's options: its id posted, its name shown. */
function NamedOptions({ items }: { items: Option[] }) {
  return items.map((item) => (
    <option key={item.id} value={item.id}>
      {item.name}
    </option>
  ));
}
