import { createContext, createElement, useContext, type ReactNode } from "react";

/**
 * The CSP nonce of a page rendered for one visitor (app/entry.server.tsx), for the inline
 * scripts and styles it renders. Pages shared between visitors have none ("": their scripts are
 * allowed by hash). In the browser it reads as undefined (browsers hide nonces from the DOM),
 * which is what hydration expects.
 */
const NonceContext = createContext("");

export function NonceProvider({ value, children }: { value: string; children: ReactNode }) {
  return createElement(NonceContext.Provider, { value }, children);
}

export function useNonce(): string | undefined {
  return useContext(NonceContext) || undefined;
}
