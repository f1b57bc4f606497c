import { redirect } from "react-router";

/** /admin → /admin/dashboard (anonymous visitors go to /auth first). */
export async function loader() {
  throw redirect("/admin/dashboard");
}

export default function AdminIndex() {
  return null;
}
