import { createContext, useContext } from "react";

/**
 * The CSP nonce of this response, for the inline scripts Remix renders. Only the server knows it;
 * in the browser it is "" (browsers hide nonces from the page, and scripts added after load do
 * not need one).
 */
export const NonceContext = createContext("");
export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);
