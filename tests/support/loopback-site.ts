import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A site a test serves on 127.0.0.1 with its own handler: its server, its address, and the same
 * address with a user name and password written into it (`editor:s3cret@`), as outside input may.
 */
export async function startLoopbackSite(handler: RequestListener): Promise<{
  server: Server;
  base: string;
  withPassword: string;
}> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, base, withPassword: base.replace("://", "://editor:s3cret@") };
}
