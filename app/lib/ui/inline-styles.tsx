import { createContext, useContext, type ReactNode } from "react";

/**
 * The site's style sheet, inlined in the <head> of every page the server renders. A separate
 * style sheet file would block the first paint for one more request, and on a slow mobile link
 * it shares the bandwidth with the scripts; inline, the page paints as soon as its HTML arrives.
 * The text reaches the server through this context (from entry.server.tsx); the browser never
 * downloads it twice: on hydration it reads the text back from the element the server sent.
 */
const StylesContext = createContext("");

export function StylesProvider({ css, children }: { css: string; children: ReactNode }) {
  return <StylesContext.Provider value={css}>{children}</StylesContext.Provider>;
}

const ELEMENT_ID = "site-styles";
let fromDocument: string | undefined;

export function InlineStyles({ nonce }: { nonce?: string }) {
  let css = useContext(StylesContext);
  if (!css && typeof document !== "undefined") {
    fromDocument ??= document.getElementById(ELEMENT_ID)?.textContent ?? "";
    css = fromDocument;
  }
  return <style id={ELEMENT_ID} nonce={nonce} dangerouslySetInnerHTML={{ __html: css }} />;
}
