import { Outlet } from "react-router";

/** The admin shell: no site header or footer. Sign-in and the guard arrive with the admin area. */
export default function AdminLayout() {
  return (
    <div className="min-h-dvh bg-background">
      <Outlet />
    </div>
  );
}
