import { useEffect, useId, useRef, useState } from "react";
import { ImageUp } from "lucide-react";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { cn } from "#app/lib/ui/cn.ts";
import { checkImageFile, IMAGE_ACCEPT } from "#app/lib/admin/image-upload.ts";
import { toast } from "#app/lib/ui/toast.ts";
import { Field } from "./fields.tsx";

/** The admin screens' image field (a course's thumbnail, a partner's logo), on the field kit. */

/** '640 bytes', '12 kB', '3.4 MB' (en-GB), for a chosen file. */
export function formatFileSize(bytes: number): string {
  const format = (value: number, unit: "kilobyte" | "megabyte", digits: number) =>
    new Intl.NumberFormat("en-GB", {
      style: "unit",
      unit,
      unitDisplay: "short",
      maximumFractionDigits: digits,
    }).format(value);
  if (bytes < 1000) return `${bytes} ${bytes === 1 ? "byte" : "bytes"}`;
  if (bytes < 1000 * 1000) return format(bytes / 1000, "kilobyte", 0);
  return format(bytes / (1000 * 1000), "megabyte", 1);
}

/**
 * An image field (a course's thumbnail, a partner's logo): the current image with its label and
 * a way to remove it (posted as `removeName=on`), and a file picker that is a real
 * `<input type=file>` — in the tab order, named by the field's label — shown as a button by its
 * second label. A chosen file is checked at once with the server's own rules
 * (`checkImageFile`: declared type and the 5 MB cap; the server then reads its bytes and has the
 * last word), answered with the spec's toast when refused, and previewed with its name and size
 * before anything is saved.
 */
export function ImageInput({
  name,
  removeName,
  label,
  currentUrl,
  error,
  previewAlt,
}: {
  name: string;
  removeName: string;
  /** 'Thumbnail', 'Logo'. */
  label: string;
  currentUrl: string | null;
  error?: string;
  /** The chosen file's preview: 'Thumbnail preview'. */
  previewAlt: string;
}) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [removed, setRemoved] = useState(false);
  const [problem, setProblem] = useState<string | undefined>();
  const [chosen, setChosen] = useState<{ name: string; size: number; url: string | null } | null>(
    null,
  );
  // The preview being read, so that a newer choice (or closing the dialog) stops an older one.
  const reading = useRef<FileReader | null>(null);
  useEffect(() => () => reading.current?.abort(), []);
  const message = problem ?? error;
  const noun = label.toLowerCase();
  const current = currentUrl && !removed ? currentUrl : null;

  const clearChoice = () => {
    reading.current?.abort();
    setChosen(null);
    if (inputRef.current) inputRef.current.value = "";
  };

  return (
    <Field
      id={id}
      label={label}
      error={message}
      hint="PNG, JPEG, GIF, WebP, BMP or ICO, up to 5 MB"
      look="admin"
    >
      {chosen ? (
        <div className="flex items-center gap-3 rounded-md border border-border p-2">
          {chosen.url ? (
            <img
              src={chosen.url}
              alt={previewAlt}
              className="size-16 shrink-0 rounded-md border border-border bg-muted object-contain"
            />
          ) : (
            <div className="size-16 shrink-0 animate-pulse rounded-md bg-muted" aria-hidden />
          )}
          <div className="min-w-0 flex-1 text-sm">
            <p className="font-medium">New {noun}</p>
            <p className="text-muted-foreground">
              <span className="[overflow-wrap:anywhere]">{chosen.name}</span> ·{" "}
              {formatFileSize(chosen.size)}
            </p>
            <p className="text-xs text-muted-foreground">
              {current ? `Replaces the current ${noun} when you save.` : "Uploaded when you save."}
            </p>
          </div>
          <Button type="button" variant="ghost" size="sm" onClick={clearChoice}>
            Clear<span className="sr-only"> the chosen {noun}</span>
          </Button>
        </div>
      ) : current ? (
        <div className="flex items-center gap-3 rounded-md border border-border p-2">
          <img
            src={current}
            alt={`Current ${noun}`}
            className="size-16 shrink-0 rounded-md border border-border bg-muted object-contain"
          />
          <p className="min-w-0 flex-1 text-sm font-medium">Current {noun}</p>
          <Button type="button" variant="outline" size="sm" onClick={() => setRemoved(true)}>
            Remove {noun}
          </Button>
        </div>
      ) : currentUrl && removed ? (
        <div className="flex flex-wrap items-center gap-3 rounded-md border border-dashed border-border p-2 text-sm">
          <p className="min-w-0 flex-1 text-muted-foreground">
            The current {noun} will be removed when you save.
          </p>
          <Button type="button" variant="ghost" size="sm" onClick={() => setRemoved(false)}>
            Keep the current {noun}
          </Button>
        </div>
      ) : null}
      {removed && !chosen ? <input type="hidden" name={removeName} value="on" /> : null}
      <div className="relative">
        <input
          ref={inputRef}
          id={id}
          // Clipped, not hidden: it keeps its place in the tab order, and its second label below
          // shows the focus ring for it.
          className="peer sr-only"
          aria-invalid={message ? true : undefined}
          aria-describedby={[message ? `${id}-error` : null, `${id}-hint`]
            .filter(Boolean)
            .join(" ")}
          type="file"
          name={name}
          accept={IMAGE_ACCEPT}
          onChange={(event) => {
            const input = event.currentTarget;
            const file = input.files?.[0];
            reading.current?.abort();
            setChosen(null);
            const found = checkImageFile(file);
            if (found) {
              input.value = "";
              setProblem(found);
              toast({ title: "Error", description: found, variant: "destructive" });
              return;
            }
            setProblem(undefined);
            if (!file) return;
            setChosen({ name: file.name, size: file.size, url: null });
            // A data: URL, not a blob: one: the site's Content-Security-Policy allows data: images
            // (img-src 'self' data: https:), not blob: ones.
            const reader = new FileReader();
            reading.current = reader;
            reader.onload = () => {
              if (reading.current !== reader || typeof reader.result !== "string") return;
              const url = reader.result;
              setChosen((was) => (was && was.name === file.name ? { ...was, url } : was));
            };
            reader.readAsDataURL(file);
          }}
        />
        <label
          htmlFor={id}
          className={cn(
            buttonVariants({ variant: "outline", size: "sm" }),
            "peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-ring peer-disabled:cursor-not-allowed peer-disabled:opacity-50 peer-aria-invalid:border-destructive",
          )}
        >
          <ImageUp aria-hidden />
          {chosen || current ? `Choose another ${noun}…` : `Choose ${noun}…`}
        </label>
      </div>
    </Field>
  );
}
