import { CircleAlert, CircleCheck, MailCheck } from "lucide-react";
import type { ReactNode } from "react";

const TONES = {
  // An error is announced at once (role=alert); the others politely (role=status).
  error: {
    Icon: CircleAlert,
    role: "alert",
    className: "border-destructive bg-destructive/10 text-destructive",
  },
  success: { Icon: CircleCheck, role: "status", className: "border-border bg-muted/40" },
  sent: { Icon: MailCheck, role: "status", className: "border-border bg-muted/40" },
} as const;

/** A form's answer above its fields: an error, a success, or "we have sent you an e-mail". */
export function Notice({ tone, children }: { tone: keyof typeof TONES; children: ReactNode }) {
  const { Icon, role, className } = TONES[tone];
  return (
    <div
      role={role}
      className={`flex items-start gap-2 rounded-md border p-3 text-sm ${className}`}
    >
      <Icon
        aria-hidden
        className={`mt-0.5 size-4 shrink-0 ${tone === "sent" ? "text-primary" : ""}`}
      />
      <div>{children}</div>
    </div>
  );
}
