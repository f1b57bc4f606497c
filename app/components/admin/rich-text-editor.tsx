import { useEffect, useRef, useState } from "react";
import type QuillType from "quill";
import quillSnowCss from "quill/dist/quill.snow.css?url";
import editorCss from "./rich-text-editor.css?url";
import { Textarea } from "#app/components/ui/textarea.tsx";
import {
  checkImageFile,
  EDITOR_IMAGE_ACCEPT,
  MEDIA_FILE_FIELD,
} from "#app/lib/admin/image-upload.ts";
import { normaliseEditorHtml } from "#app/lib/catalogue/editor-html.ts";
import { toast } from "#app/lib/ui/toast.ts";

/**
 * The course content editor (docs/rules.md, Catalogue and courses; decision 0006): Quill 2 with
 * exactly the toolbar the spec lists. Quill is imported inside an effect, so it is only ever
 * downloaded by an admin page that shows the editor and never runs on the server. The HTML goes
 * into a hidden input, so the surrounding form posts normally; the server sanitises it on save and
 * again on render. Before Quill has loaded (or without JavaScript) a plain textarea stands in.
 */

/** Stylesheets for the route that shows the editor (its `links`). */
export function richTextEditorLinks() {
  return [
    { rel: "stylesheet", href: quillSnowCss },
    { rel: "stylesheet", href: editorCss },
  ];
}

export const MEDIA_UPLOAD_URL = "/api/admin/media";

const TOOLBAR = [
  [{ header: [1, 2, 3, false] }],
  ["bold", "italic", "underline", "strike"],
  [{ list: "ordered" }, { list: "bullet" }],
  [{ indent: "-1" }, { indent: "+1" }],
  ["link", "image"],
  [{ align: [] }],
  [{ color: [] }, { background: [] }],
  ["clean"],
];

/** Everything the toolbar can make, and nothing else (pasted content is reduced to these). */
const FORMATS = [
  "header",
  "bold",
  "italic",
  "underline",
  "strike",
  "list",
  "indent",
  "link",
  "image",
  "align",
  "color",
  "background",
];

const LINK_PROTOCOLS = ["http", "https", "mailto", "tel"];

/** The types the picker offers (png, gif, jpeg, bmp, ico), as browsers report them. */
const IMAGE_TYPES = EDITOR_IMAGE_ACCEPT.split(",");

/** Names for the toolbar's icon-only buttons and pickers (Quill gives them none). */
const BUTTON_LABELS: [selector: string, label: string][] = [
  ["button.ql-bold", "Bold"],
  ["button.ql-italic", "Italic"],
  ["button.ql-underline", "Underline"],
  ["button.ql-strike", "Strikethrough"],
  ['button.ql-list[value="ordered"]', "Numbered list"],
  ['button.ql-list[value="bullet"]', "Bulleted list"],
  ['button.ql-indent[value="-1"]', "Decrease indent"],
  ['button.ql-indent[value="+1"]', "Increase indent"],
  ["button.ql-link", "Link"],
  ["button.ql-image", "Insert image"],
  ["button.ql-clean", "Clear formatting"],
  [".ql-header .ql-picker-label", "Heading"],
  [".ql-align .ql-picker-label", "Alignment"],
  [".ql-color .ql-picker-label", "Text colour"],
  [".ql-background .ql-picker-label", "Background colour"],
];

async function uploadImage(file: File): Promise<string | null> {
  const problem = checkImageFile(file);
  if (problem) {
    toast({ title: "Error", description: problem, variant: "destructive" });
    return null;
  }
  const body = new FormData();
  body.set(MEDIA_FILE_FIELD, file);
  try {
    const response = await fetch(MEDIA_UPLOAD_URL, { method: "POST", body });
    const result = (await response.json().catch(() => ({}))) as {
      url?: string;
      error?: string;
      message?: string;
    };
    if (response.ok && result.url) return result.url;
    toast({
      title: "Error",
      description:
        result.error ?? result.message ?? "The image could not be uploaded. Please try again.",
      variant: "destructive",
    });
  } catch {
    toast({
      title: "Error",
      description: "The image could not be uploaded. Please try again.",
      variant: "destructive",
    });
  }
  return null;
}

export function RichTextEditor({
  name,
  defaultValue,
  labelId,
  describedBy,
  invalid,
}: {
  name: string;
  defaultValue?: string | null;
  /** id of the visible label, read out for the editing area. */
  labelId: string;
  describedBy?: string;
  invalid?: boolean;
}) {
  const holder = useRef<HTMLDivElement>(null);
  const fallback = useRef<HTMLTextAreaElement>(null);
  const [html, setHtml] = useState(defaultValue ?? "");
  const [ready, setReady] = useState(false);

  useEffect(() => {
    const container = holder.current;
    if (!container) return;
    let cancelled = false;
    let quill: QuillType | undefined;

    void (async () => {
      const { default: Quill } = await import("quill");
      if (cancelled) return;
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      type LinkFormat = { new (...args: any[]): object; sanitize(url: string): string };
      const Link = Quill.import("formats/link") as LinkFormat;
      // Links: http, https, mailto and tel only; a bare 'example.co.uk' becomes
      // https://example.co.uk.
      class CourseLink extends Link {
        static PROTOCOL_WHITELIST = LINK_PROTOCOLS;
        static override sanitize(url: string): string {
          const value = url.trim();
          const hasScheme = /^[a-z][a-z0-9+.-]*:/i.test(value);
          const local = value.startsWith("/") || value.startsWith("#");
          return super.sanitize(hasScheme || local || value === "" ? value : `https://${value}`);
        }
      }
      Quill.register("formats/link", CourseLink, true);

      const initial = fallback.current?.value ?? defaultValue ?? "";
      const editorElement = document.createElement("div");
      container.replaceChildren(editorElement);

      const insertImages = async (index: number, files: File[]) => {
        let at = index;
        for (const file of files) {
          const url = await uploadImage(file);
          if (!url || !quill) continue;
          quill.insertEmbed(at, "image", url, "user");
          at += 1;
          quill.setSelection(at, 0, "silent");
        }
      };

      quill = new Quill(editorElement, {
        theme: "snow",
        bounds: container,
        formats: FORMATS,
        modules: {
          toolbar: {
            container: TOOLBAR,
            handlers: {
              image() {
                const input = document.createElement("input");
                input.type = "file";
                input.accept = EDITOR_IMAGE_ACCEPT;
                input.addEventListener("change", () => {
                  const file = input.files?.[0];
                  if (!file || !quill) return;
                  const range = quill.getSelection(true);
                  void insertImages(range.index, [file]);
                });
                input.click();
              },
            },
          },
          // Dropped or pasted image files are uploaded too, never inlined as base64.
          uploader: {
            mimetypes: IMAGE_TYPES,
            handler(range: { index: number; length: number }, files: File[]) {
              if (range.length && quill) quill.deleteText(range.index, range.length, "user");
              void insertImages(range.index, files);
            },
          },
        },
      });
      const Delta = Quill.import("delta");
      // Pasted HTML may carry images as data: URLs: drop those, keep linked ones.
      quill.clipboard.addMatcher("IMG", (node, delta) =>
        (node as HTMLImageElement).getAttribute("src")?.trim().toLowerCase().startsWith("data:")
          ? new Delta()
          : delta,
      );
      if (initial) quill.setContents(quill.clipboard.convert({ html: initial }), "silent");

      const root = quill.root;
      root.setAttribute("role", "textbox");
      root.setAttribute("aria-multiline", "true");
      root.setAttribute("aria-labelledby", labelId);
      if (describedBy) root.setAttribute("aria-describedby", describedBy);
      const toolbar = container.querySelector(".ql-toolbar");
      toolbar?.setAttribute("role", "toolbar");
      toolbar?.setAttribute("aria-label", "Formatting");
      for (const [selector, label] of BUTTON_LABELS) {
        toolbar?.querySelectorAll(selector).forEach((el) => el.setAttribute("aria-label", label));
      }
      const linkInput = container.querySelector<HTMLInputElement>(".ql-tooltip input[type=text]");
      linkInput?.setAttribute("data-link", "https://example.co.uk");
      linkInput?.setAttribute("aria-label", "Link address");

      const sync = () => {
        if (!quill) return;
        setHtml(quill.getLength() <= 1 ? "" : normaliseEditorHtml(quill.getSemanticHTML()));
      };
      quill.on("text-change", sync);
      sync();
      setReady(true);
    })().catch(() => {
      // The textarea stays: content can still be edited as HTML.
    });

    return () => {
      cancelled = true;
      quill?.off("text-change");
      container.replaceChildren();
      quill = undefined;
    };
    // The editor is created once per mount; later prop changes are not pushed into it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    holder.current
      ?.querySelector(".ql-editor")
      ?.setAttribute("aria-invalid", String(Boolean(invalid)));
  }, [invalid, ready]);

  return (
    <div className="rich-text-editor" data-ready={ready ? "true" : "false"}>
      {ready ? (
        <input type="hidden" name={name} value={html} />
      ) : (
        <Textarea
          ref={fallback}
          name={name}
          defaultValue={defaultValue ?? ""}
          aria-labelledby={labelId}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          className="font-mono"
        />
      )}
      <div ref={holder} hidden={!ready} />
    </div>
  );
}
