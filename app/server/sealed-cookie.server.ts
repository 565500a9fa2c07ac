import { hkdfSync } from "node:crypto";
import { createCookie, type Cookie, type CookieOptions } from "@remix-run/node";
import { parse as parseCookieHeader } from "cookie";
import { CompactEncrypt, compactDecrypt } from "jose";

const encoder = new TextEncoder();
/** Opened cookies kept per cookie (see `opened`): a few hundred signed-in browsers at once. */
const MAX_OPENED = 1000;
const decoder = new TextDecoder();

/** A 256-bit key per secret, derived for this one purpose (the secret also signs other cookies). */
const keyOf = (secret: string) => new Uint8Array(hkdfSync("sha256", secret, "", "console session cookie", 32));

/**
 * A cookie whose value is sealed, not just signed: a JWE (direct AES-256-GCM, by jose) that the
 * browser can neither read nor alter. Remix's signed cookies carry their data readable (base64
 * JSON), which would show the user and the refresh token to anyone holding the cookie file.
 * The first secret seals; every secret opens, so secrets rotate as with signed cookies.
 */
export function createSealedCookie(name: string, { secrets = [], ...options }: CookieOptions): Cookie {
  if (!secrets.length) throw new Error(`The ${name} cookie needs at least one secret`);
  // The JWE is its own integrity check: the cookie underneath is plain.
  const plain = createCookie(name, options);
  const keys = secrets.map(keyOf);
  // Cookies this process opened, by their value as sent: a signed-in user sends the same one with
  // every request, and opening it is Remix's decoding (base64 and JSON, escaped a character at a
  // time: ~70 KB of garbage for each of a page's several loaders) then an AES-GCM decryption
  // through WebCrypto's job queue. Only a value that opened is kept, so a tampered one is tried
  // (and refused) every time.
  const opened = new Map<string, string>();
  return {
    name: plain.name,
    isSigned: true,
    get expires() {
      return plain.expires;
    },
    async parse(cookieHeader, parseOptions) {
      const sent = cookieHeader ? parseCookieHeader(cookieHeader)[name] : undefined;
      if (!sent) return null;
      const known = opened.get(sent);
      if (known !== undefined) return JSON.parse(known);
      const sealed: unknown = await plain.parse(cookieHeader, parseOptions);
      if (typeof sealed !== "string" || !sealed) return null;
      for (const key of keys) {
        try {
          const { plaintext } = await compactDecrypt(sealed, key, {
            keyManagementAlgorithms: ["dir"],
            contentEncryptionAlgorithms: ["A256GCM"],
          });
          const json = decoder.decode(plaintext);
          if (opened.size >= MAX_OPENED) opened.delete(opened.keys().next().value!);
          opened.set(sent, json);
          return JSON.parse(json);
        } catch {
          // Sealed with another secret, tampered with, or not ours: try the next key.
        }
      }
      return null;
    },
    async serialize(value, serializeOptions) {
      // Destroying a session writes an empty, expired cookie: nothing to seal.
      if (value === "") return plain.serialize("", serializeOptions);
      const sealed = await new CompactEncrypt(encoder.encode(JSON.stringify(value)))
        .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
        .encrypt(keys[0]);
      return plain.serialize(sealed, serializeOptions);
    },
  };
}
