import sanitizeHtml, { type IOptions } from "sanitize-html";
import { LOCAL_MEDIA_URL_PREFIX, parseMediaKey } from "./storage/media.server.ts";

/**
 * Course content is rich text from the admin editor (decision 0002: headers 1–3, bold, italic,
 * underline, strike, lists, indent, link, align, colour, background, images). Whatever is
 * stored, the public site only ever renders what that toolbar can produce; everything else is
 * removed. Why sanitize-html (and this version): docs/decisions/0002-html-sanitiser.md.
 */

const BLOCK_TAGS = ["p", "h1", "h2", "h3", "li"] as const;
const INLINE_TAGS = ["strong", "b", "em", "i", "u", "s", "strike", "span", "a"] as const;

/** Alignment and indent classes as a Quill-style editor writes them. */
const EDITOR_CLASSES = [/^ql-align-(?:center|right|justify)$/, /^ql-indent-[1-8]$/];

/** Colour values only: hex, rgb()/rgba() with plain numbers, or a named colour. */
const COLOUR_VALUES = [
  /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i,
  /^rgba?\(\s*\d{1,3}%?\s*,\s*\d{1,3}%?\s*,\s*\d{1,3}%?\s*(?:,\s*(?:0|1|0?\.\d+|\d{1,3}%)\s*)?\)$/i,
  /^[a-z]{3,20}$/i,
];

/**
 * What a browser would make of a URL attribute, for checking: ASCII tab and newline are
 * ignored anywhere in a URL and control characters and spaces at either end are trimmed; the
 * probe additionally drops every other space or control character, so 'jav&#x09;ascript:',
 * ' javascript:' or 'java\0script:' all read as 'javascript:' and are refused.
 */
function readUrl(raw: string | undefined): { clean: string; probe: string } | null {
  if (raw === undefined) return null;
  /* eslint-disable no-control-regex -- exactly the URL standard's "C0 control or space" */
  const clean = raw.replace(/[\t\n\r]/g, "").replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, "");
  const probe = clean.replace(/[\u0000-\u0020\u007f-\u009f\s]/g, "").toLowerCase();
  /* eslint-enable no-control-regex */
  return { clean, probe };
}

const ABSOLUTE_WEB = /^https?:\/\//;
/** '/path' but not '//host' or '/\host', which browsers read as another site. */
const SITE_PATH = /^\/(?![/\\])/;

function linkHref(raw: string | undefined): { href: string; external: boolean } | null {
  const url = readUrl(raw);
  if (!url || url.clean === "") return null;
  if (ABSOLUTE_WEB.test(url.probe)) return { href: url.clean, external: true };
  if (/^(?:mailto|tel):/.test(url.probe)) return { href: url.clean, external: false };
  if (SITE_PATH.test(url.probe) || url.probe.startsWith("#")) {
    return { href: url.clean, external: false };
  }
  return null;
}

/** An image from the web, or one of our media files: `/media/<folder>/<name>` exactly. */
function imageSrc(raw: string | undefined): string | null {
  const url = readUrl(raw);
  if (!url) return null;
  if (ABSOLUTE_WEB.test(url.probe)) return url.clean;
  if (!url.clean.startsWith(LOCAL_MEDIA_URL_PREFIX)) return null;
  try {
    parseMediaKey(url.clean.slice(LOCAL_MEDIA_URL_PREFIX.length));
    return url.clean;
  } catch {
    // '/media/../db', another folder, a query or an encoded name: not a file we stored.
    return null;
  }
}

const OPTIONS: IOptions = {
  allowedTags: [
    "p",
    "br",
    "h1",
    "h2",
    "h3",
    "strong",
    "b",
    "em",
    "i",
    "u",
    "s",
    "strike",
    "ul",
    "ol",
    "li",
    "a",
    "span",
    "img",
  ],
  allowedAttributes: {
    ...Object.fromEntries([...BLOCK_TAGS, ...INLINE_TAGS].map((tag) => [tag, ["style"]])),
    a: ["href", "target", "rel", "style"],
    img: ["src", "alt", "loading", "decoding"],
  },
  allowedClasses: Object.fromEntries([...BLOCK_TAGS, "span"].map((tag) => [tag, EDITOR_CLASSES])),
  allowedStyles: { "*": { color: COLOUR_VALUES, "background-color": COLOUR_VALUES } },
  allowedSchemes: ["http", "https", "mailto", "tel"],
  allowedSchemesByTag: { img: ["http", "https"] },
  allowedSchemesAppliedToAttributes: ["href", "src"],
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  // Their text is code or a foreign document, never content: drop it along with the tag.
  nonTextTags: [
    "script",
    "style",
    "textarea",
    "option",
    "select",
    "xmp",
    "noscript",
    "noembed",
    "noframes",
    "iframe",
    "template",
    "title",
    "object",
    "embed",
    "applet",
    "svg",
    "math",
    "plaintext",
  ],
  transformTags: {
    // Attributes are rebuilt, not filtered: nothing an author typed besides the URL survives.
    a: (tagName, attribs) => {
      const link = linkHref(attribs.href);
      const keep: Record<string, string> = {};
      if (attribs.style) keep.style = attribs.style;
      if (!link) return { tagName, attribs: keep };
      keep.href = link.href;
      if (link.external) {
        keep.target = "_blank";
        keep.rel = "noopener noreferrer";
      }
      return { tagName, attribs: keep };
    },
    img: (tagName, attribs) => {
      const src = imageSrc(attribs.src);
      const keep: Record<string, string> = {};
      if (src)
        Object.assign(keep, { src, alt: attribs.alt ?? "", loading: "lazy", decoding: "async" });
      return { tagName, attribs: keep };
    },
  },
  // An image whose source was refused is dropped rather than left empty.
  exclusiveFilter: (frame) => frame.tag === "img" && !frame.attribs.src,
};

/** Course content HTML reduced to what the rich-text toolbar produces; safe to render. */
export function sanitizeCourseHtml(html: string | null | undefined): string {
  if (!html) return "";
  return sanitizeHtml(html, OPTIONS).trim();
}
