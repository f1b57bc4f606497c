import { ShieldCheck, ShieldOff } from "lucide-react";
import { useRef, useState } from "react";
import { Form } from "react-router";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { ConfirmAction } from "#app/components/admin/confirm-action.tsx";
import { Card, CardContent, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import type { TwoFactorSetupView } from "#app/lib/admin/account.ts";

/**
 * Two-factor sign-in on /admin/account: its state, turning it on (password → on a first set-up, a
 * code e-mailed to the account → QR code, secret and backup codes → a code from the app), new
 * backup codes, turning it off. Plain POST forms.
 */
export function TwoFactorCard({
  enabled,
  setup,
  backupCodes,
  mailboxCodeSentTo,
}: {
  enabled: boolean;
  /** The mailbox step of a first set-up: where the code was e-mailed. */
  mailboxCodeSentTo: string | null;
  /** Set while it is being turned on (after the password). */
  setup: TwoFactorSetupView | null;
  /** New backup codes just made (shown once). */
  backupCodes: string[] | null;
}) {
  return (
    <Card>
      <CardHeader className="flex flex-row items-center justify-between gap-4">
        <CardTitle as="h2">Two-factor sign-in</CardTitle>
        {enabled ? (
          <Badge variant="success" className="gap-1">
            <ShieldCheck aria-hidden className="size-3.5" /> On
          </Badge>
        ) : (
          <Badge variant="outline" className="gap-1">
            <ShieldOff aria-hidden className="size-3.5" /> Off
          </Badge>
        )}
      </CardHeader>
      <CardContent className="grid gap-6 text-sm">
        {enabled ? (
          <>
            <p>
              Signing in to this account needs your password and a code from your authenticator app
              (or one of your backup codes).
            </p>
            {backupCodes ? <BackupCodes codes={backupCodes} /> : null}
            <PasswordForm
              intent="backup-codes"
              id="backup-codes-password"
              legend="New backup codes"
              help="Makes 10 new backup codes; the old ones stop working."
              submit="Make New Backup Codes"
            />
            <TurnOffForm />
          </>
        ) : setup ? (
          <SetUp setup={setup} />
        ) : mailboxCodeSentTo ? (
          <MailboxStep sentTo={mailboxCodeSentTo} />
        ) : (
          <>
            <p>
              With two-factor sign-in, a stolen password is not enough: signing in also needs a
              6-digit code from an authenticator app on your phone (such as Google Authenticator,
              Microsoft Authenticator or 1Password).
            </p>
            <PasswordForm
              intent="enable-start"
              id="enable-password"
              legend="Turn on two-factor sign-in"
              help="Enter your password to begin."
              submit="Turn On Two-Factor Sign-In"
            />
          </>
        )}
      </CardContent>
    </Card>
  );
}

function PasswordForm({
  intent,
  id,
  legend,
  help,
  submit,
}: {
  intent: string;
  id: string;
  legend: string;
  help: string;
  submit: string;
}) {
  return (
    <Form method="post" className="grid gap-3 rounded-md border p-4">
      <input type="hidden" name="intent" value={intent} />
      <h3 className="font-semibold">{legend}</h3>
      <p className="text-muted-foreground">{help}</p>
      <PasswordField id={id} />
      <div>
        <Button type="submit" variant="outline">
          {submit}
        </Button>
      </div>
    </Form>
  );
}

/** Asks first (a dialog) when scripts run; without them the password is the confirmation. */
function TurnOffForm() {
  const form = useRef<HTMLFormElement>(null);
  const confirmed = useRef(false);
  const [asking, setAsking] = useState(false);
  return (
    <Form
      ref={form}
      method="post"
      className="grid gap-3 rounded-md border border-destructive/40 p-4"
    >
      <input type="hidden" name="intent" value="disable" />
      <h3 className="font-semibold">Turn off two-factor sign-in</h3>
      <p className="text-muted-foreground">
        Signing in will need only your password. Not recommended.
      </p>
      <PasswordField id="disable-password" />
      <div>
        <Button
          type="submit"
          variant="destructive"
          onClick={(event) => {
            if (confirmed.current || !form.current?.reportValidity()) return;
            event.preventDefault();
            setAsking(true);
          }}
        >
          Turn Off Two-Factor Sign-In
        </Button>
      </div>
      <ConfirmAction
        open={asking}
        onOpenChange={setAsking}
        question="Turn off two-factor sign-in?"
        detail="Anyone who learns your password could then sign in as you. Your backup codes stop working."
        cancelLabel="Keep It On"
        confirmLabel="Turn Off"
        destructive
        onConfirm={() => {
          confirmed.current = true;
          form.current?.requestSubmit();
          confirmed.current = false;
        }}
      />
    </Form>
  );
}

function BackupCodes({ codes }: { codes: string[] }) {
  return (
    <section aria-labelledby="backup-codes-heading" className="grid gap-2 rounded-md border p-4">
      <h3 id="backup-codes-heading" className="font-semibold">
        Your backup codes
      </h3>
      <p>
        <strong>Store these now</strong> somewhere safe, away from your phone (a password manager or
        a printout): they are shown only this once. Each signs you in once if you lose your phone.
      </p>
      <ul className="grid grid-cols-2 gap-1 font-mono text-base sm:grid-cols-5" data-backup-codes>
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
    </section>
  );
}

/** Step 2 of turning it on: scan (or type), keep the backup codes, confirm with a code. */
function SetUp({ setup }: { setup: TwoFactorSetupView }) {
  return (
    <div className="grid gap-6">
      <ol className="grid list-decimal gap-4 pl-5">
        <li>
          <p>Scan this QR code with your authenticator app:</p>
          <div
            role="img"
            aria-label="QR code for your authenticator app"
            className="mt-2 w-fit rounded-md bg-white p-2 [&_svg]:size-48"
            // An SVG drawn on the server by the qrcode package from better-auth's otpauth:// address.
            dangerouslySetInnerHTML={{ __html: setup.qrSvg }}
          />
          <p className="mt-2">Or type this key into the app (a time-based key for NightWatch):</p>
          <p>
            <code
              id="two-factor-secret"
              className="mt-1 inline-block rounded bg-muted px-2 py-1 font-mono text-base tracking-wider break-all"
            >
              {setup.secret}
            </code>
          </p>
        </li>
        {setup.backupCodes ? (
          <li>
            <BackupCodes codes={setup.backupCodes} />
          </li>
        ) : (
          <li>
            <p>Keep the backup codes shown before; you can make new ones once this is on.</p>
          </li>
        )}
        <li>
          <Form method="post" className="grid gap-3">
            <input type="hidden" name="intent" value="enable-confirm" />
            <div className="grid gap-2 sm:max-w-xs">
              <Label htmlFor="enable-code">The 6-digit code your app shows</Label>
              <Input
                id="enable-code"
                name="code"
                autoComplete="one-time-code"
                inputMode="numeric"
                maxLength={7}
                required
              />
            </div>
            <div>
              <Button type="submit">Confirm and Turn On</Button>
            </div>
          </Form>
        </li>
      </ol>
    </div>
  );
}

/** A first set-up proves the mailbox: the e-mailed code, with the password again. */
function MailboxStep({ sentTo }: { sentTo: string }) {
  return (
    <Form method="post" className="grid gap-3 rounded-md border p-4">
      <input type="hidden" name="intent" value="enable-mailbox" />
      <h3 className="font-semibold">Check your e-mail</h3>
      <p className="text-muted-foreground">
        To make sure it is you, we e-mailed a 6-digit code to <strong>{sentTo}</strong>. It works
        for 15 minutes. Enter it with your password to go on to the set-up.
      </p>
      <div className="grid gap-2 sm:max-w-xs">
        <Label htmlFor="enable-mailbox-code">Code from the e-mail</Label>
        <Input
          id="enable-mailbox-code"
          name="mailboxCode"
          autoComplete="one-time-code"
          inputMode="numeric"
          maxLength={7}
          required
        />
      </div>
      <PasswordField id="enable-mailbox-password" />
      <div>
        <Button type="submit">Continue</Button>
      </div>
    </Form>
  );
}

/** The account password every change on this card asks for again. */
function PasswordField({ id }: { id: string }) {
  return (
    <div className="grid gap-2 sm:max-w-sm">
      <Label htmlFor={id}>Password</Label>
      <Input id={id} name="password" type="password" autoComplete="current-password" required />
    </div>
  );
}
