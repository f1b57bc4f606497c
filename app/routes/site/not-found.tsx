import { Link, data } from "react-router";
import { log } from "#server/log.server.ts";
import type { Route } from "./+types/not-found";

export function loader({ request }: Route.LoaderArgs) {
  log.warn({ path: new URL(request.url).pathname }, "unknown route");
  return data(null, { status: 404 });
}

export const meta: Route.MetaFunction = () => [
  { title: "Page not found | NightWatch" },
  { name: "robots", content: "noindex" },
];

export default function NotFound() {
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center gap-4 px-4 py-24 text-center">
      <p className="text-6xl font-bold text-primary">404</p>
      <h1 className="text-2xl font-semibold">Oops! Page not found</h1>
      <Link to="/" className="text-primary underline underline-offset-4 hover:text-primary/80">
        Return to Home
      </Link>
    </section>
  );
}
