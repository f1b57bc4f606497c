import { type RouteConfig, index, layout, prefix, route } from "@react-router/dev/routes";

/** The route table of spec §2, grouped as the spec groups it. */
export default [
  layout("routes/site/layout.tsx", [
    // site
    index("routes/site/home.tsx"),
    route("training", "routes/site/training-redirect.tsx"),

    // any other route
    route("*", "routes/site/not-found.tsx"),
  ]),

  // admin (no site header or footer)
  ...prefix("admin", [
    layout("routes/admin/layout.tsx", [route("*", "routes/admin/not-found.tsx")]),
  ]),
] satisfies RouteConfig;
