import { Link } from "react-router";
import { CourseQuoteDialog } from "#app/components/forms/course-quote-dialog.tsx";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from "#app/components/ui/card.tsx";
import type { CheckoutCourse } from "#app/lib/checkout.ts";
import { CourseSummaryHeader } from "./order-summary.tsx";

/** The checkout of a course without an online price: a quote request instead of a form. */
export function NotForSale({ course, coursePath }: { course: CheckoutCourse; coursePath: string }) {
  return (
    <div className="mt-8 grid gap-6 lg:grid-cols-[1fr_22rem]">
      <Card>
        <CardHeader>
          <CardTitle as="h2">This course can't be booked online</CardTitle>
          <CardDescription>
            {course.title} has no online price yet. Tell us how many people you'd like to train and
            how, and our training team will send you a quote within 24 hours.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-wrap gap-3">
          <CourseQuoteDialog course={{ id: course.id, title: course.title }} modality="online">
            <Button>Request a Quote</Button>
          </CourseQuoteDialog>
          <Link to={coursePath} className={buttonVariants({ variant: "outline" })}>
            Back to Course
          </Link>
        </CardContent>
      </Card>
      <CourseSummaryHeader course={course} />
    </div>
  );
}
