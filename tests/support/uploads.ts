import type { ApiHost } from "../../api/host";
import { apiCaller } from "./test-host";

/**
 * A PDF uploaded as the browser does it: register its name, PUT the bytes to the signed link,
 * complete. Answers the file's id and the completion's answer (400 for bytes that are refused).
 */
export async function uploadPdf(host: ApiHost, token: string, appId: number, name: string, bytes: Uint8Array) {
  const call = apiCaller(host);
  const presigned = await call("POST", `/v1/files/presigned_urls?app_id=${appId}`, {
    token,
    body: { file_names: [name] },
  });
  if (presigned.status !== 200) throw new Error(`presigning ${name} failed: ${JSON.stringify(presigned.body)}`);
  const target = presigned.body.presigned_urls[0] as { url: string; url_id: number; s3_path: string };
  const sent = await host.api.request(target.url, {
    method: "PUT",
    headers: { "content-type": "application/pdf" },
    body: new Uint8Array(bytes),
  });
  if (sent.status !== 200) throw new Error(`sending ${name} failed: ${sent.status}`);
  const completed = await call("POST", "/v1/files/complete_upload", {
    token,
    body: { url_id: target.url_id, s3_path: target.s3_path },
  });
  return { id: target.url_id, completed };
}
