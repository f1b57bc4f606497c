import { cn } from "#app/lib/ui/cn.ts";

/**
 * Typography for course content from the rich-text editor, including the editor's alignment
 * and indent classes. `html` must already be sanitised on the server (server/html.server.ts).
 */
const RICH_TEXT = [
  "text-base leading-relaxed text-foreground/90",
  "[&_h1]:mt-10 [&_h1]:text-3xl [&_h1]:font-bold [&_h1]:tracking-tight [&_h1]:text-foreground",
  "[&_h2]:mt-10 [&_h2]:text-2xl [&_h2]:font-semibold [&_h2]:tracking-tight [&_h2]:text-foreground",
  "[&_h3]:mt-8 [&_h3]:text-xl [&_h3]:font-semibold [&_h3]:text-foreground",
  "[&>:first-child]:mt-0 [&_p]:mt-4",
  "[&_ul]:mt-4 [&_ul]:list-disc [&_ul]:pl-6 [&_ol]:mt-4 [&_ol]:list-decimal [&_ol]:pl-6 [&_li]:mt-1.5 [&_li]:pl-1",
  "[&_strong]:font-semibold [&_strong]:text-foreground [&_b]:font-semibold [&_u]:underline [&_s]:line-through [&_strike]:line-through",
  "[&_a]:text-primary [&_a]:underline [&_a]:underline-offset-4 [&_a:hover]:text-primary/80",
  "[&_img]:my-6 [&_img]:h-auto [&_img]:max-w-full [&_img]:rounded-md",
  "[&_.ql-align-center]:text-center [&_.ql-align-right]:text-right [&_.ql-align-justify]:text-justify",
  "[&_.ql-indent-1]:pl-[3em] [&_.ql-indent-2]:pl-[6em] [&_.ql-indent-3]:pl-[9em] [&_.ql-indent-4]:pl-[12em]",
  "[&_.ql-indent-5]:pl-[15em] [&_.ql-indent-6]:pl-[18em] [&_.ql-indent-7]:pl-[21em] [&_.ql-indent-8]:pl-[24em]",
].join(" ");

export function RichText({ html, className }: { html: string; className?: string }) {
  return <div className={cn(RICH_TEXT, className)} dangerouslySetInnerHTML={{ __html: html }} />;
}
