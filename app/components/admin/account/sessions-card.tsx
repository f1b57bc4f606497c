import { Form } from "react-router";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import type { AccountSessionView } from "#app/lib/admin/account.ts";
import { formatDateTime } from "#app/lib/admin/time.ts";

/**
 * Where the admin is signed in (their sessions in better-auth): each can be signed out, or all
 * but this one. Sessions are named by id; their tokens never reach the page.
 */
export function SessionsCard({ sessions }: { sessions: AccountSessionView[] }) {
  const others = sessions.filter((s) => !s.current).length;
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Where you are signed in</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4 text-sm">
        <ul className="grid gap-3">
          {sessions.map((session) => (
            <li
              key={session.id}
              className="flex flex-col gap-2 rounded-md border p-3 sm:flex-row sm:items-center sm:justify-between"
            >
              <div>
                <p className="font-medium">
                  {session.device}{" "}
                  {session.current ? <Badge variant="info">This device</Badge> : null}
                </p>
                <p className="text-muted-foreground">
                  {session.ipAddress ? `IP ${session.ipAddress} · ` : ""}
                  Signed in {formatDateTime(session.createdAt)} · Last active{" "}
                  {formatDateTime(session.lastActiveAt)}
                </p>
              </div>
              {session.current ? null : (
                <Form method="post">
                  <input type="hidden" name="intent" value="revoke-session" />
                  <input type="hidden" name="sessionId" value={session.id} />
                  <Button
                    type="submit"
                    variant="outline"
                    size="sm"
                    aria-label={`Sign out ${session.device}, signed in ${formatDateTime(session.createdAt)}`}
                  >
                    Sign out
                  </Button>
                </Form>
              )}
            </li>
          ))}
        </ul>
        {others > 0 ? (
          <Form method="post">
            <input type="hidden" name="intent" value="revoke-others" />
            <Button type="submit" variant="outline">
              Sign Out Everywhere Else
            </Button>
          </Form>
        ) : (
          <p className="text-muted-foreground">You are not signed in anywhere else.</p>
        )}
      </CardContent>
    </Card>
  );
}
