import { createContext, createElement, useContext, type ReactNode } from "react";

/**
 * The per-request CSP nonce. The server renders it into every inline script React Router emits;
 * in the browser it reads as "" (browsers hide nonces from the DOM), which is what hydration expects.
 */
const NonceContext = createContext("");

export function NonceProvider({ value, children }: { value: string; children: ReactNode }) {
  return createElement(NonceContext.Provider, { value }, children);
}

export function useNonce(): string {
  return useContext(NonceContext);
}
