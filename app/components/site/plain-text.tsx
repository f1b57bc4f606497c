import { Fragment } from "react";
import { textBlocks } from "#app/lib/catalogue/plain-text.ts";
import { cn } from "#app/lib/ui/cn.ts";

/**
 * Plain text staff typed (a course's sections, a trainer's bio, the About story) as elements:
 * paragraphs with their line breaks, and lines starting with "- " as a bulleted list
 * (app/lib/catalogue/plain-text.ts). React escapes every character: nothing typed becomes markup.
 */
export function PlainText({ text, className }: { text: string; className?: string }) {
  return (
    <div className={cn("space-y-3 leading-relaxed text-foreground/90", className)}>
      {textBlocks(text).map((block, i) =>
        block.kind === "list" ? (
          <ul key={i} className="list-disc space-y-1.5 pl-6">
            {block.items.map((item, j) => (
              <li key={j} className="pl-1">
                {item}
              </li>
            ))}
          </ul>
        ) : (
          <p key={i}>
            {block.lines.map((line, j) => (
              <Fragment key={j}>
                {j > 0 ? <br /> : null}
                {line}
              </Fragment>
            ))}
          </p>
        ),
      )}
    </div>
  );
}
