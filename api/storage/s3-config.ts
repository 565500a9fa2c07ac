/*
 * S3 settings, apart from the S3 client itself: the AWS SDK is loaded only when a bucket is set,
 * so a console keeping its files on local disk neither starts slower nor holds the SDK in memory.
 */

export interface S3Config {
  bucket: string;
  region: string;
  /** An S3-compatible server (MinIO, R2, a test server); unset means AWS itself. */
  endpoint?: string;
  /** Unset means the SDK's usual credential chain (environment, instance role, …). */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** `endpoint/bucket/key` instead of `bucket.endpoint/key`, which most S3-compatible servers need. */
  forcePathStyle?: boolean;
  /** A folder inside the bucket that holds every key, so one bucket can serve several consoles. */
  keyPrefix?: string;
}

type Env = Record<string, string | undefined>;

/** S3 settings from the environment, or null when S3_BUCKET is unset (files then stay on local disk). */
export function s3ConfigFromEnv(env: Env): S3Config | null {
  if (!env.S3_BUCKET) return null;
  return {
    bucket: env.S3_BUCKET,
    region: env.S3_REGION || "us-east-1",
    endpoint: env.S3_ENDPOINT || undefined,
    accessKeyId: env.S3_ACCESS_KEY_ID || undefined,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY || undefined,
    forcePathStyle: env.S3_FORCE_PATH_STYLE === "true",
    keyPrefix: env.S3_KEY_PREFIX || undefined,
  };
}
