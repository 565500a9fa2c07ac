import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  type ListObjectsV2CommandOutput,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import {
  contentDisposition,
  contentTypeOf,
  isSafeKey,
  type DownloadLinkOptions,
  type ObjectStorage,
  type SignedLink,
  type StoredObject,
  type UploadLinkOptions,
} from "./storage";
import type { S3Config } from "./s3-config";

export { s3ConfigFromEnv, type S3Config } from "./s3-config";

function createClient(config: S3Config) {
  const credentials =
    config.accessKeyId && config.secretAccessKey
      ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey }
      : undefined;
  return new S3Client({
    region: config.region,
    endpoint: config.endpoint,
    forcePathStyle: config.forcePathStyle ?? false,
    credentials,
    // Recent SDKs add CRC checksums to every request and check them on every response. Many
    // S3-compatible servers neither send nor accept them, and a presigned PUT would carry a checksum
    // computed at signing time over no bytes at all, so S3 would refuse the browser's real upload.
    // Checksums are used only where S3 requires them.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
}

/** A missing object, not a missing bucket: a misconfigured bucket should fail loudly, not look empty. */
const isMissing = (error: unknown) =>
  error instanceof NoSuchKey ||
  (error instanceof S3ServiceException && (error.name === "NoSuchKey" || error.name === "NotFound"));

function checkedKey(key: string) {
  if (!isSafeKey(key)) throw new Error(`unsafe storage key: ${key}`);
  return key;
}

/**
 * Object storage in an S3 bucket (or an S3-compatible server), with the same contract as
 * LocalStorage (storage-contract.test.ts). Links are S3 presigned URLs: the browser downloads and
 * uploads straight from and to the bucket, so the API never carries the bytes of large files.
 */
export class S3Storage implements ObjectStorage {
  readonly kind = "s3" as const;
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;

  constructor(config: S3Config) {
    this.client = createClient(config);
    this.bucket = config.bucket;
    const folder = (config.keyPrefix ?? "").replace(/^\/+|\/+$/g, "");
    this.prefix = folder ? `${folder}/` : "";
  }

  /** The object name in the bucket; callers only ever see keys without the prefix. */
  private objectKey(key: string) {
    return this.prefix + checkedKey(key);
  }

  async put(key: string, body: Uint8Array | string, contentType?: string) {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: this.objectKey(key),
        Body: body,
        ContentType: contentType ?? contentTypeOf(key),
      }),
    );
    return { key, size: typeof body === "string" ? Buffer.byteLength(body) : body.byteLength };
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      return object.Body ? Buffer.from(await object.Body.transformToByteArray()) : Buffer.alloc(0);
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async head(key: string) {
    try {
      const object = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      return { size: object.ContentLength ?? 0 };
    } catch (error) {
      // HEAD responses have no body, so a missing object is a bare 404 ("NotFound"), not NoSuchKey.
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async delete(key: string) {
    // S3 answers 204 for a key that is not there, which is the idempotence the contract asks for.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
  }

  /** S3 has no rename: a server-side copy (the bytes never leave the bucket), then a delete. */
  async move(from: string, to: string) {
    const source = this.objectKey(from);
    await this.client.send(
      new CopyObjectCommand({
        Bucket: this.bucket,
        Key: this.objectKey(to),
        CopySource: `${this.bucket}/${encodeURIComponent(source).replace(/%2F/g, "/")}`,
      }),
    );
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: source }));
  }

  async list(prefix: string): Promise<StoredObject[]> {
    const folder = checkedKey(prefix.replace(/\/$/, ""));
    const objects: StoredObject[] = [];
    let token: string | undefined;
    do {
      const page: ListObjectsV2CommandOutput = await this.client.send(
        // The delimiter folds deeper keys into CommonPrefixes: only the folder's own objects come back.
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: `${this.prefix}${folder}/`,
          Delimiter: "/",
          ContinuationToken: token,
        }),
      );
      for (const item of page.Contents ?? []) {
        const key = (item.Key ?? "").slice(this.prefix.length);
        if (isSafeKey(key)) objects.push({ key, size: item.Size ?? 0, modifiedAt: item.LastModified ?? new Date(0) });
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return objects.sort((a, b) => b.modifiedAt.getTime() - a.modifiedAt.getTime());
  }

  async signedDownloadUrl(key: string, filename: string, options: DownloadLinkOptions = {}): Promise<SignedLink> {
    const expiresIn = options.expiresInSeconds ?? 300;
    // The response header override is a query parameter of the URL, so it is covered by the signature.
    const disposition = contentDisposition(filename, options.inline);
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: this.objectKey(key),
      ResponseContentDisposition: disposition,
    });
    return this.presign(command, expiresIn);
  }

  async signedUploadUrl(key: string, options: UploadLinkOptions): Promise<SignedLink> {
    const command = new PutObjectCommand({
      Bucket: this.bucket,
      Key: this.objectKey(key),
      ContentType: options.contentType,
    });
    // The presigner leaves Content-Type out of the signature unless told to sign it; signed, S3
    // refuses a PUT that sends any other type.
    return this.presign(command, options.expiresInSeconds ?? 900, new Set(["content-type"]));
  }

  private async presign(
    command: GetObjectCommand | PutObjectCommand,
    expiresIn: number,
    signableHeaders?: Set<string>,
  ): Promise<SignedLink> {
    // The signature carries its time in whole seconds, and the link expires counted from that.
    const signingDate = new Date(Math.floor(Date.now() / 1000) * 1000);
    const url = await getSignedUrl(this.client, command, { expiresIn, signingDate, signableHeaders });
    return { url, expiresAt: new Date(signingDate.getTime() + expiresIn * 1000) };
  }
}
