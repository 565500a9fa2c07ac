import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";
import { SECRET_MASK_PREFIX } from "@contract";

const PREFIX = "enc:v1:";

/**
 * Integration secrets (keys, tokens, passwords) are stored AES-256-GCM encrypted: a database
 * dump or an export never holds them in clear. The key is derived from a server secret, never stored.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(serverSecret: string) {
    this.key = createHmac("sha256", serverSecret).update("integration-secrets").digest();
  }

  seal(plain: string) {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    const sealed = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    return `${PREFIX}${[iv, cipher.getAuthTag(), sealed].map((part) => part.toString("base64url")).join(".")}`;
  }

  /**
   * A short tag of a stored value that tells two versions apart and nothing else: keyed with the
   * server secret, so it cannot be checked against guesses without it.
   */
  fingerprint(stored: string) {
    return createHmac("sha256", this.key).update(`fingerprint:${stored}`).digest("hex").slice(0, 8);
  }

  open(stored: string) {
    if (!stored.startsWith(PREFIX)) throw new Error("not a sealed secret");
    const [iv, tag, sealed] = stored
      .slice(PREFIX.length)
      .split(".")
      .map((part) => Buffer.from(part, "base64url"));
    const decipher = createDecipheriv("aes-256-gcm", this.key, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(sealed), decipher.final()]).toString("utf8");
  }
}

export const isSealed = (value: string) => value.startsWith(PREFIX);

/** What a stored secret looks like in answers: that there is one, and its last four characters when it is long enough to spare them. */
export function maskSecret(plain: string) {
  if (!plain) return "";
  return plain.length >= 12 ? `${SECRET_MASK_PREFIX}${plain.slice(-4)}` : SECRET_MASK_PREFIX;
}

export const isMasked = (value: string) => value.startsWith(SECRET_MASK_PREFIX);

/** The box of this server's secrets: keyed with its signing secret, so every process of one deployment opens the same values. */
export const secretBoxOf = (deps: { config: { jwtSecret: string } }) => new SecretBox(deps.config.jwtSecret);
