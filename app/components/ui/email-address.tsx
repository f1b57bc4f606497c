import { Fragment } from "react";

/**
 * An e-mail address that wraps where a reader expects, after the @ and before each dot, rather
 * than mid-word ("admin@example.c / om"); only a single part wider than its box breaks inside.
 */
export function EmailAddress({ email, className }: { email: string; className?: string }) {
  const parts = email.split(/(?<=@)|(?=\.)/);
  return (
    <span className={["[overflow-wrap:anywhere]", className].filter(Boolean).join(" ")}>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </span>
  );
}
