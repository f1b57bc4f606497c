import type { ReactNode } from "react";

// Placeholder until the visitor-forms work lands: `children` is the trigger button.
export function CourseQuoteDialog(props: {
  course: { id: string; title: string };
  modality?: "online" | "face_to_face";
  children: ReactNode;
}) {
  return <>{props.children}</>;
}
