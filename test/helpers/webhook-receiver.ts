// The suites' webhook receiver: an HTTP server on 127.0.0.1 that records every delivery (its path, headers and exact
// bytes, and the JSON body) and answers `status`. One receiver for the order and webhook suites (a port of their
// own) and for the CLI's (any free port: a callback_url for `dispatch trigger`, a forward target for
// `dispatch listen`), so what a delivery looked like is read the same way everywhere.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";

export interface Delivery {
  /** The request's path: one receiver can stand for several endpoints (/hook, /listen). */
  path: string;
  headers: IncomingHttpHeaders;
  /** The body as received, byte for byte. */
  bytes: Buffer;
  /** The body as text. */
  raw: string;
  body: {
    id?: string;
    type: string;
    timestamp: string;
    data: { order_id: string; status: string; previous_status: string | null };
  };
}

export interface Receiver {
  /** http://127.0.0.1:<port>, with no path. */
  url: string;
  deliveries: Delivery[];
  stop(): Promise<void>;
}

/** A receiver on 127.0.0.1:`port` (0: any free port); answers `status` (default 204; a function is asked per
 * delivery) and records every delivery. */
export async function startReceiver(port = 0, status: number | (() => number) = 204): Promise<Receiver> {
  const deliveries: Delivery[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const bytes = Buffer.concat(chunks);
      const raw = bytes.toString();
      deliveries.push({ path: request.url ?? "", headers: request.headers, bytes, raw, body: JSON.parse(raw) });
      response.writeHead(typeof status === "number" ? status : status()).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    deliveries,
    stop: () =>
      new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      ),
  };
}
