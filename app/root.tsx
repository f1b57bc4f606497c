import "./lib/zod-setup.ts";
import { useEffect } from "react";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  isRouteErrorResponse,
  useRouteError,
} from "react-router";
import type { Route } from "./+types/root";
import { Toaster } from "./components/ui/toast.tsx";
import { InlineStyles } from "./lib/ui/inline-styles.tsx";
import { useNonce } from "./lib/ui/nonce.ts";

export const links: Route.LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  // Set once React has taken over the server's HTML: `html[data-hydrated]` tells styles and
  // end-to-end tests that the page's scripts now handle the forms.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return (
    <html lang="en-GB" className="dark">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="dark" />
        <meta name="theme-color" content="#070b14" />
        <InlineStyles nonce={nonce} />
        <Meta />
        <Links />
      </head>
      <body className="min-h-dvh bg-background font-sans text-foreground antialiased">
        {children}
        <Toaster />
        {/* Restores scroll on back/forward and scrolls to the top on every new navigation. */}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const title = status === 404 ? "Page not found" : "Something went wrong";
  return (
    <main className="mx-auto flex min-h-dvh max-w-xl flex-col items-center justify-center gap-4 p-8 text-center">
      <title>{`${title} | NightWatch`}</title>
      <h1 className="text-3xl font-bold">{title}</h1>
      <p className="text-muted-foreground">
        {status === 404
          ? "The page you asked for does not exist."
          : "Please try again in a moment. If it keeps happening, contact us."}
      </p>
      <a className="text-primary underline underline-offset-4" href="/">
        Return to Home
      </a>
    </main>
  );
}
