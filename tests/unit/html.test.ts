import { describe, expect, it } from "vitest";
import { sanitizeCourseHtml } from "#server/html.server.ts";

/**
 * The course content sanitiser against the OWASP XSS filter-evasion cheat sheet (and a few
 * newer mutation-XSS vectors): whatever goes in, only toolbar tags with safe attributes and
 * safe URLs come out. Then the toolbar's own output must pass through unchanged.
 */

const ALLOWED_TAGS = new Set([
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
]);
const ALLOWED_ATTRIBUTES: Record<string, Set<string>> = {
  a: new Set(["href", "target", "rel", "style"]),
  img: new Set(["src", "alt", "loading", "decoding"]),
};
const DEFAULT_ATTRIBUTES = new Set(["class", "style"]);

function decodeEntities(value: string): string {
  return value
    .replace(/&#x([0-9a-f]+);?/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);?/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

/** Fails unless every tag, attribute, URL and style in the sanitiser's output is allowed. */
function expectSafe(output: string) {
  expect(output).not.toMatch(
    /<\s*\/?\s*(script|style|iframe|object|embed|svg|math|body|meta|link|base|form|input|button|video|audio|source|details|table|div|xss|frame|frameset|applet|template|noscript)\b/i,
  );
  // Every '<' left in the output opens an allowed tag (everything else is escaped as text).
  for (const match of output.matchAll(/<(\/?)([^\s/>]*)([^>]*)>/g)) {
    const [, , name = "", rest = ""] = match;
    const tag = name.toLowerCase();
    expect(ALLOWED_TAGS, `tag <${tag}> in ${output}`).toContain(tag);
    for (const attr of rest.matchAll(/([^\s=/]+)(?:="([^"]*)")?/g)) {
      const attrName = attr[1]!.toLowerCase();
      const value = decodeEntities(attr[2] ?? "");
      const allowed = ALLOWED_ATTRIBUTES[tag] ?? DEFAULT_ATTRIBUTES;
      expect(allowed, `attribute ${attrName} on <${tag}> in ${output}`).toContain(attrName);
      expect(attrName).not.toMatch(/^on/);
      if (attrName === "href") {
        expect(value, `href in ${output}`).toMatch(/^(https?:\/\/|mailto:|tel:|\/(?![/\\])|#)/i);
      }
      if (attrName === "src") {
        expect(value, `src in ${output}`).toMatch(/^(https?:\/\/|\/media\/)/i);
      }
      if (attrName === "style") {
        for (const declaration of value.split(";").filter(Boolean)) {
          expect(declaration, `style in ${output}`).toMatch(
            /^(color|background-color):(#[0-9a-f]{3,8}|rgba?\([\d\s.,%]+\)|[a-z]+)$/i,
          );
        }
      }
      if (attrName === "class") {
        for (const name of value.split(/\s+/).filter(Boolean)) {
          expect(name).toMatch(/^ql-(align-(center|right|justify)|indent-[1-8])$/);
        }
      }
    }
  }
  const decoded = decodeEntities(output.replace(/>[^<]*</g, "><"));
  expect(decoded).not.toMatch(/(java|vb)script\s*:|data\s*:|expression\s*\(|url\s*\(/i);
}

const OWASP_VECTORS: [string, string][] = [
  ["basic script", `<SCRIPT SRC=https://xss.rocks/xss.js></SCRIPT>`],
  ["inline script", `<script>alert('XSS')</script><p>after</p>`],
  ["img javascript src", `<IMG SRC="javascript:alert('XSS');">`],
  ["img no quotes", `<IMG SRC=javascript:alert('XSS')>`],
  ["mixed case", `<IMG SRC=JaVaScRiPt:alert('XSS')>`],
  ["grave accents", "<IMG SRC=`javascript:alert(\"RSnake says, 'XSS'\")`>"],
  ["malformed anchor", `<a onmouseover="alert(document.cookie)">xxs link</a>`],
  ["malformed img", `<IMG """><SCRIPT>alert("XSS")</SCRIPT>"\\>`],
  ["img onerror", `<img src=x onerror=alert(1)>`],
  ["img onmouseover", `<IMG SRC=# onmouseover="alert('xxs')">`],
  [
    "decimal entities",
    `<IMG SRC=&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;&#97;&#108;&#101;&#114;&#116;&#40;&#39;&#88;&#83;&#83;&#39;&#41;>`,
  ],
  [
    "padded decimal entities without semicolons",
    `<IMG SRC=&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058&#0000097&#0000108&#0000101&#0000114&#0000116&#0000040&#0000039&#0000088&#0000083&#0000083&#0000039&#0000041>`,
  ],
  [
    "hex entities without semicolons",
    `<IMG SRC=&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A&#x61&#x6C&#x65&#x72&#x74&#x28&#x27&#x58&#x53&#x53&#x27&#x29>`,
  ],
  ["embedded tab", `<IMG SRC="jav\tascript:alert('XSS');">`],
  ["encoded tab", `<IMG SRC="jav&#x09;ascript:alert('XSS');">`],
  ["encoded newline", `<IMG SRC="jav&#x0A;ascript:alert('XSS');">`],
  ["encoded carriage return", `<IMG SRC="jav&#x0D;ascript:alert('XSS');">`],
  ["leading spaces and meta chars", `<IMG SRC=" &#14;  javascript:alert('XSS');">`],
  ["non-alpha-non-digit", `<SCRIPT/XSS SRC="http://xss.rocks/xss.js"></SCRIPT>`],
  ["body onload with junk", '<BODY onload!#$%&()*~+-_.,:;?@[/|\\]^`=alert("XSS")>'],
  ["extraneous open brackets", `<<SCRIPT>alert("XSS");//\\<</SCRIPT>`],
  ["no closing script tag", `<SCRIPT SRC=http://xss.rocks/xss.js?< B >`],
  ["half-open iframe", `<iframe src=http://xss.rocks/scriptlet.html <`],
  ["end title tag", `</TITLE><SCRIPT>alert("XSS");</SCRIPT>`],
  ["input image", `<INPUT TYPE="IMAGE" SRC="javascript:alert('XSS');">`],
  ["body background", `<BODY BACKGROUND="javascript:alert('XSS')">`],
  ["body onload", `<BODY ONLOAD=alert('XSS')>text`],
  ["svg onload", `<svg/onload=alert('XSS')>`],
  [
    "svg with script",
    `<svg><script>alert(1)</script><a xlink:href="javascript:alert(1)">x</a></svg>`,
  ],
  ["link stylesheet", `<LINK REL="stylesheet" HREF="javascript:alert('XSS');">`],
  ["style import", `<STYLE>@import'http://xss.rocks/xss.css';</STYLE>`],
  ["meta refresh", `<META HTTP-EQUIV="refresh" CONTENT="0;url=javascript:alert('XSS');">`],
  [
    "meta refresh data url",
    `<META HTTP-EQUIV="refresh" CONTENT="0;url=data:text/html base64,PHNjcmlwdD5hbGVydCgnWFNTJyk8L3NjcmlwdD4K">`,
  ],
  ["iframe javascript", `<IFRAME SRC="javascript:alert('XSS');"></IFRAME>`],
  ["iframe srcdoc", `<iframe srcdoc="<script>alert(1)</script>"></iframe>`],
  ["table background", `<TABLE BACKGROUND="javascript:alert('XSS')"><TR><TD>x</TD></TR></TABLE>`],
  ["div background-image", `<DIV STYLE="background-image: url(javascript:alert('XSS'))">`],
  ["div expression", `<DIV STYLE="width: expression(alert('XSS'));">x</DIV>`],
  ["p style expression", `<p style="color: expression(alert(1))">x</p>`],
  ["span background url", `<span style="background-color: url(javascript:alert(1))">x</span>`],
  [
    "escaped css expression",
    `<span style="color: ex/**/pression(alert(1)); background-color: red">x</span>`,
  ],
  ["behavior", `<XSS STYLE="behavior: url(xss.htc);">`],
  ["object", `<OBJECT TYPE="text/x-scriptlet" DATA="http://xss.rocks/scriptlet.html"></OBJECT>`],
  [
    "embed svg data",
    `<EMBED SRC="data:image/svg+xml;base64,PHN2ZyB4bWxuczpzdmc9Imh0dH A6Ly93d3cudzMub3JnLzIwMDAvc3ZnIiB4bWxucz0iaHR0cDovL3d3dy53My5vcmcv MjAwMC9zdmciIHhtbG5zOnhsaW5rPSJodHRwOi8vd3d3LnczLm9yZy8xOTk5L3hs aW5rIiB2ZXJzaW9uPSIxLjAiIHg9IjAiIHk9IjAiIHdpZHRoPSIxOTQiIGhlaWdodD0iMjAw IiBpZD0ieHNzIj48c2NyaXB0IHR5cGU9InRleHQvZWNtYXNjcmlwdCI+YWxlcnQoIlh TUyIpOzwvc2NyaXB0Pjwvc3ZnPg==" type="image/svg+xml" AllowScriptAccess="always"></EMBED>`,
  ],
  [
    "data text/html link",
    `<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>`,
  ],
  ["data image", `<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">`],
  ["vbscript link", `<a href="vbscript:msgbox(1)">x</a>`],
  ["link with encoded tab", `<a href="jav&#x09;ascript:alert(1)">x</a>`],
  ["link with newline", `<a href="java\nscript:alert(1)">x</a>`],
  ["link with leading space and case", `<a href="  JaVaScRiPt:alert(1)">x</a>`],
  ["link with named colon entity", `<a href="javascript&colon;alert(1)">x</a>`],
  ["link with NUL", `<a href="java\0script:alert(1)">x</a>`],
  ["link with hex-entity scheme", `<a href="&#x6A;avascript:alert(1)">x</a>`],
  ["protocol-relative link", `<a href="//evil.example/">x</a>`],
  ["backslash protocol-relative link", `<a href="/\\evil.example/">x</a>`],
  ["protocol-relative with tab", `<a href="/\t/evil.example/">x</a>`],
  ["protocol-relative image", `<img src="//evil.example/x.png">`],
  ["base href", `<base href="javascript:alert('XSS');//">`],
  ["math href", `<math href="javascript:alert(1)">CLICKME</math>`],
  [
    "math mutation XSS",
    `<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>`,
  ],
  [
    "noscript mutation XSS",
    `<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>`,
  ],
  ["form formaction", `<form><button formaction=javascript:alert(1)>X</button></form>`],
  ["details ontoggle", `<details open ontoggle=alert(1)>x</details>`],
  ["video source onerror", `<video><source onerror="alert(1)"></video>`],
  ["event handler on allowed tag", `<p onmouseover=alert(1) class="ql-align-center">text</p>`],
  ["handler on allowed link", `<a href="https://example.com" onclick="alert(1)">x</a>`],
  ["img src x with eval", `<img src=x:alert(alt) onerror=eval(src) alt=0>`],
  ["nested unclosed tags", `<p><b><i><a href="javascript:alert(1)"><img src=x onerror=alert(1)`],
  ["nested scripts", `<scr<script>ipt>alert(1)</scr</script>ipt>`],
  ["comment break-out", `<!--<img src="--><img src=x onerror=alert(1)//">`],
  ["cdata", `<![CDATA[<script>alert(1)</script>]]>`],
  [
    "style attribute on span break-out",
    `<span style="color:red;&#x22;onmouseover=alert(1)">x</span>`,
  ],
  ["class injection", `<p class="ql-align-center&quot; onclick=&quot;alert(1)">x</p>`],
];

describe("sanitizeCourseHtml against XSS filter-evasion vectors", () => {
  it("covers at least 25 vectors", () => {
    expect(OWASP_VECTORS.length).toBeGreaterThanOrEqual(25);
  });

  it.each([
    `<img src=x onerror=alert(1)>`,
    `<a href="jav&#x09;ascript:alert(1)">x</a>`,
    `<p style="color: expression(alert(1))">x</p>`,
    `<svg onload=alert(1)>`,
    `<a href="//evil.example/">x</a>`,
  ])("the check itself rejects the raw vector %s", (vector) => {
    expect(() => expectSafe(vector)).toThrow();
  });

  it.each(OWASP_VECTORS)("%s: nothing executable survives", (_name, vector) => {
    expectSafe(sanitizeCourseHtml(vector));
  });

  it("keeps the text of a paragraph after a removed script, escaped", () => {
    expect(sanitizeCourseHtml(`<script>alert('XSS')</script><p>after</p>`)).toBe("<p>after</p>");
    expect(sanitizeCourseHtml(`<p>1 < 2 & <script>x</script>3 > 2</p>`)).toBe(
      "<p>1 &lt; 2 &amp; 3 &gt; 2</p>",
    );
  });

  it("drops a refused link target but keeps its text", () => {
    expect(sanitizeCourseHtml(`<a href="jav&#x09;ascript:alert(1)">click</a>`)).toBe(
      "<a>click</a>",
    );
  });

  it("removes handlers and keeps the element", () => {
    expect(sanitizeCourseHtml(`<a href="https://example.com" onclick="alert(1)">x</a>`)).toBe(
      '<a href="https://example.com" target="_blank" rel="noopener noreferrer">x</a>',
    );
  });

  it("returns an empty string for nothing", () => {
    expect(sanitizeCourseHtml(null)).toBe("");
    expect(sanitizeCourseHtml(undefined)).toBe("");
    expect(sanitizeCourseHtml("")).toBe("");
  });
});

describe("sanitizeCourseHtml keeps what the toolbar makes", () => {
  it("passes headers, emphasis, lists, indent, alignment and colours through unchanged", () => {
    const toolbar = [
      "<h1>Heading one</h1>",
      '<h2 class="ql-align-center">Heading two</h2>',
      "<h3>Heading three</h3>",
      '<p class="ql-align-justify ql-indent-2">Text with <strong>bold</strong>, <b>b</b>, <em>italic</em>, <i>i</i>, <u>underline</u>, <s>strike</s> and <strike>old strike</strike>.</p>',
      '<p><span style="color:#e60000">red</span> <span style="background-color:rgb(255, 255, 0)">highlight</span> <strong style="color:blue">blue bold</strong></p>',
      '<ul><li>one</li><li class="ql-indent-1">nested</li></ul>',
      '<ol><li class="ql-align-right">first</li><li>second</li></ol>',
      "<p>line<br />break</p>",
      "<p><br /></p>",
    ].join("");
    expect(sanitizeCourseHtml(toolbar)).toBe(toolbar);
  });

  it("keeps http(s), mailto, tel and site links; opens absolute web links in a new tab", () => {
    expect(
      sanitizeCourseHtml(
        '<p><a href="https://www.legislation.gov.uk/ukpga/2023/56">Act</a> <a href="http://example.com/a?b=1&amp;c=2">http</a> <a href="mailto:training@nightwatch.co.uk">mail</a> <a href="tel:+442071234567">call</a> <a href="/services/counter-fraud-training">catalogue</a> <a href="#modules">modules</a></p>',
      ),
    ).toBe(
      '<p><a href="https://www.legislation.gov.uk/ukpga/2023/56" target="_blank" rel="noopener noreferrer">Act</a> <a href="http://example.com/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer">http</a> <a href="mailto:training@nightwatch.co.uk">mail</a> <a href="tel:+442071234567">call</a> <a href="/services/counter-fraud-training">catalogue</a> <a href="#modules">modules</a></p>',
    );
  });

  it("keeps images from the web or the site's media folder, lazily loaded", () => {
    expect(
      sanitizeCourseHtml(
        '<p><img src="/media/thumbnails/course-1.png" alt="Diagram"><img src="https://cdn.example.com/a.jpg"><img src="/etc/passwd"></p>',
      ),
    ).toBe(
      '<p><img src="/media/thumbnails/course-1.png" alt="Diagram" loading="lazy" decoding="async" /><img src="https://cdn.example.com/a.jpg" alt="" loading="lazy" decoding="async" /></p>',
    );
  });

  it("keeps a /media/ image only when it names one of our files, exactly", () => {
    for (const src of [
      "/media/../db/pglite",
      "/media/thumbnails/../../secrets.png",
      "/media/%2e%2e/x.png",
      "/media/other-folder/x.png",
      "/media/thumbnails/x.png?y=1",
      "/media/thumbnails/",
      "/media/content/sub/x.png",
    ]) {
      expect(sanitizeCourseHtml(`<p><img src="${src}"></p>`), src).toBe("<p></p>");
    }
    expect(sanitizeCourseHtml('<p><img src="/media/content/photo-1.webp"></p>')).toBe(
      '<p><img src="/media/content/photo-1.webp" alt="" loading="lazy" decoding="async" /></p>',
    );
  });

  it("drops classes and styles the toolbar cannot make, keeping the rest", () => {
    expect(
      sanitizeCourseHtml(
        '<p class="ql-align-center big ql-indent-9" style="color:red;position:fixed;font-size:90px">x</p>',
      ),
    ).toBe('<p class="ql-align-center" style="color:red">x</p>');
  });

  it("unwraps tags outside the toolbar but keeps their text", () => {
    expect(sanitizeCourseHtml("<div><blockquote>quoted</blockquote></div>")).toBe("quoted");
  });
});
