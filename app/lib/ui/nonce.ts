import { createContext, createElement, useContext, type ReactNode } from "react";

/**
 * The CSP nonce of the render (app/entry.server.tsx), for the inline scripts and styles it
 * renders: on a page for one visitor the policy allows them by it; on a page shared between
 * visitors it marks them as the server's own, and the policy allows them by hash. In the browser
 * it reads as undefined (browsers hide nonces from the DOM), which is what hydration expects.
 */
const NonceContext = createContext("");

export function NonceProvider({ value, children }: { value: string; children: ReactNode }) {
  return createElement(NonceContext.Provider, { value }, children);
}

export function useNonce(): string | undefined {
  return useContext(NonceContext) || undefined;
}
