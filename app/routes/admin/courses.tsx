import { ExternalLink, FolderTree, Handshake, Star } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/courses";
import { RichTextEditor, richTextEditorLinks } from "#app/components/admin/rich-text-editor.tsx";
import {
  CataloguePage,
  useCatalogueForm,
} from "#app/components/admin/catalogue/catalogue-page.tsx";
import {
  Field,
  formatAdminDate,
  ImageInput,
  unreadableNumbers,
} from "#app/components/admin/catalogue/form-parts.tsx";
import { Badge, type BadgeVariant } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Checkbox } from "#app/components/ui/checkbox.tsx";
import {
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "#app/components/ui/dialog.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { NativeSelect } from "#app/components/ui/select.tsx";
import { TableCell, TableHead } from "#app/components/ui/table.tsx";
import { Textarea } from "#app/components/ui/textarea.tsx";
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
} from "#app/lib/course-form.ts";
import { formatPrice } from "#app/lib/format.ts";
import { adminMeta } from "#app/lib/admin-nav.ts";
import { requireAdmin } from "#server/auth.server.ts";
import { listCategoryOptions } from "#server/categories.server.ts";
import { catalogueFormAction } from "#server/forms/catalogue-form-action.server.ts";
import {
  createCourse,
  deleteCourse,
  listAdminCourses,
  updateCourse,
} from "#server/course-admin.server.ts";
import { listPartnerOptions } from "#server/partners.server.ts";
import { keepFormOnFailure } from "#app/lib/forms.ts";

export const links: Route.LinksFunction = () => richTextEditorLinks();

export const meta: Route.MetaFunction = () => adminMeta("Courses");

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const [courses, categories, partners] = await Promise.all([
    listAdminCourses(),
    listCategoryOptions(),
    listPartnerOptions(),
  ]);
  return { courses, categories, partners };
}

export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  return catalogueFormAction(request, {
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
}

export const clientAction = keepFormOnFailure;

const STATUS_BADGE: Record<CourseStatus, BadgeVariant> = {
  published: "success",
  draft: "warning",
  archived: "muted",
};

type Option = { id: string; name: string };

export default function AdminCourses({ loaderData }: Route.ComponentProps) {
  const { courses, categories, partners } = loaderData;
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
      label={(course) => course.title}
      rowAttributes={(course) => ({ "data-course-id": course.id })}
      moreActions={(course) =>
        course.externalLink ? (
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
        ) : null
      }
      form={(course, onSaved) => (
        <CourseFormDialog
          course={course}
          categories={categories}
          partners={partners}
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
        {course.categoryName ?? <span className="text-muted-foreground">Uncategorized</span>}
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

function CourseFormDialog({
  course,
  categories,
  partners,
  onSaved,
}: {
  course: AdminCourse | null;
  categories: Option[];
  partners: Option[];
  onSaved: () => void;
}) {
  const { fetcher, formRef, errors, id, field, saving, onSubmit } = useCatalogueForm({
    schema: courseFormSchema,
    onSaved,
    extraErrors: unreadableNumbers,
  });

  return (
    <DialogContent className="sm:max-w-3xl">
      <DialogHeader>
        <DialogTitle>{course ? "Edit Course" : "Add Course"}</DialogTitle>
        <DialogDescription>
          {course
            ? "Change the course's details. Published changes show on the site straight away."
            : "New courses start as drafts unless you choose another status."}
        </DialogDescription>
      </DialogHeader>
      <fetcher.Form
        ref={formRef}
        method="post"
        encType="multipart/form-data"
        noValidate
        className="grid gap-4"
        onSubmit={onSubmit}
      >
        <input type="hidden" name="intent" value="save" />
        {course ? <input type="hidden" name="id" value={course.id} /> : null}
        <fieldset disabled={saving} className="grid gap-4">
          <div className="grid gap-4 sm:grid-cols-2">
            <Field id={id("title")} label="Title" error={errors.title} required>
              <Input
                {...field("title")}
                name="title"
                defaultValue={course?.title ?? ""}
                maxLength={200}
                required
              />
            </Field>
            <Field
              id={id("slug")}
              label="Slug"
              error={errors.slug}
              hint="Optional: made from the title when left empty"
            >
              <Input
                {...field("slug", true)}
                name="slug"
                defaultValue={course?.slug ?? ""}
                placeholder="e.g. intro-to-counter-fraud"
                maxLength={120}
              />
            </Field>
          </div>
          <Field
            id={id("short_description")}
            label="Short description"
            error={errors.short_description}
          >
            <Input
              {...field("short_description")}
              name="short_description"
              defaultValue={course?.shortDescription ?? ""}
              maxLength={500}
            />
          </Field>
          <Field id={id("description")} label="Description" error={errors.description}>
            <Textarea
              {...field("description")}
              name="description"
              defaultValue={course?.description ?? ""}
            />
          </Field>
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
          <ImageInput
            name="thumbnail"
            removeName="remove_thumbnail"
            label="Thumbnail"
            currentUrl={course?.thumbnailUrl ?? null}
            error={errors.thumbnail}
            previewAlt="Thumbnail preview"
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <Field
              id={id("price")}
              label="Price (£)"
              error={errors.price}
              hint="Leave empty for none (shown as Free)"
            >
              <Input
                {...field("price", true)}
                name="price"
                type="number"
                min="0"
                step="0.01"
                inputMode="decimal"
                defaultValue={course?.price ?? ""}
              />
            </Field>
            <Field id={id("duration_hours")} label="Duration (hours)" error={errors.duration_hours}>
              <Input
                {...field("duration_hours")}
                name="duration_hours"
                type="number"
                min="0"
                step="1"
                inputMode="numeric"
                defaultValue={course?.durationHours ?? ""}
              />
            </Field>
          </div>
          <div className="grid gap-4 sm:grid-cols-3">
            <Field id={id("status")} label="Status" error={errors.status}>
              <NativeSelect
                {...field("status")}
                name="status"
                defaultValue={course?.status ?? "draft"}
              >
                {COURSE_STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {COURSE_STATUS_LABELS[s]}
                  </option>
                ))}
              </NativeSelect>
            </Field>
            <Field id={id("delivery_type")} label="Delivery type" error={errors.delivery_type}>
              <NativeSelect
                {...field("delivery_type")}
                name="delivery_type"
                defaultValue={course?.deliveryType ?? "online"}
              >
                {DELIVERY_TYPES.map((t) => (
                  <option key={t} value={t}>
                    {DELIVERY_TYPE_LABELS[t]}
                  </option>
                ))}
              </NativeSelect>
            </Field>
            <Field id={id("group_type")} label="Group type" error={errors.group_type}>
              <NativeSelect
                {...field("group_type")}
                name="group_type"
                defaultValue={course?.groupType ?? "none"}
              >
                <option value="none">Not set</option>
                {GROUP_TYPES.map((t) => (
                  <option key={t} value={t}>
                    {GROUP_TYPE_LABELS[t]}
                  </option>
                ))}
              </NativeSelect>
            </Field>
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field id={id("category_id")} label="Category" error={errors.category_id}>
              <NativeSelect
                {...field("category_id")}
                name="category_id"
                defaultValue={course?.categoryId ?? "none"}
              >
                <option value="none">Uncategorized</option>
                {categories.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
              </NativeSelect>
            </Field>
            <Field id={id("partner_id")} label="Partner" error={errors.partner_id}>
              <NativeSelect
                {...field("partner_id")}
                name="partner_id"
                defaultValue={course?.partnerId ?? "none"}
              >
                <option value="none">None (NightWatch exclusive)</option>
                {partners.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
              </NativeSelect>
            </Field>
          </div>
          <Field id={id("external_link")} label="External link" error={errors.external_link}>
            <Input
              {...field("external_link")}
              name="external_link"
              type="url"
              inputMode="url"
              placeholder="https://"
              defaultValue={course?.externalLink ?? ""}
            />
          </Field>
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
        </fieldset>
        <DialogFooter>
          <Button type="submit" disabled={saving}>
            {saving ? "Saving..." : course ? "Update Course" : "Create Course"}
          </Button>
        </DialogFooter>
      </fetcher.Form>
    </DialogContent>
  );
}
