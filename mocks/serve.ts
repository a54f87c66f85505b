// `npm run mock`: Prism's mock of openapi.yaml behind a small loopback front that corrects its static answers
// (answer-fixes.ts). Prism is this process's child and ends with it on SIGINT, SIGTERM and SIGHUP, and when the
// npm process that started us goes away (npm forwards only SIGINT and SIGTERM).
import { createServer, request, type IncomingMessage, type ServerResponse } from "node:http";
import { createReplayMemory, problemForStatus } from "./answer-fixes.js";
import { startPrism, type PrismHandle } from "./prism.js";

const port = Number(process.env.MOCK_PORT ?? 4010);
const replays = createReplayMemory();

const header = (req: IncomingMessage, name: string) => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

function referenceIdOf(body: Buffer): string | undefined {
  try {
    const parsed = JSON.parse(body.toString("utf8")) as { reference_id?: unknown };
    return typeof parsed.reference_id === "string" ? parsed.reference_id : undefined;
  } catch {
    return undefined;
  }
}

/** Prism's answer with its headers and problem body corrected for this request. */
function answer(req: IncomingMessage, body: Buffer, upstream: IncomingMessage, payload: Buffer, res: ServerResponse) {
  const status = upstream.statusCode ?? 500;
  const headers = { ...upstream.headers };
  const replayed =
    headers["idempotent-replayed"] !== undefined &&
    replays.isReplay(header(req, "x-api-key") ?? "", header(req, "idempotency-key"), referenceIdOf(body));
  if (!replayed) delete headers["idempotent-replayed"];
  let out = payload;
  if (String(headers["content-type"]).includes("json") && payload.length) {
    try {
      out = Buffer.from(JSON.stringify(problemForStatus(JSON.parse(payload.toString("utf8")), status)));
    } catch {
      // not JSON after all: passed on untouched
    }
  }
  headers["content-length"] = String(out.length);
  res.writeHead(status, headers).end(out);
}

const collect = (stream: IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("end", () => {
      resolve(Buffer.concat(chunks));
    });
    stream.on("error", reject);
  });

async function forward(prism: PrismHandle, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await collect(req);
  const upstream = await new Promise<IncomingMessage>((resolve, reject) => {
    const out = request(new URL(req.url ?? "/", prism.url), { method: req.method, headers: req.headers }, resolve);
    out.on("error", reject);
    out.end(body);
  });
  answer(req, body, upstream, await collect(upstream), res);
}

async function main(): Promise<void> {
  const prism = await startPrism({ mode: "mock" });
  const front = createServer((req, res) => {
    forward(prism, req, res).catch((error: unknown) => {
      res.writeHead(502, { "content-type": "text/plain" }).end(`mock: Prism did not answer: ${String(error)}`);
    });
  });
  let stopping = false;
  const stop = (exitCode: number) => {
    if (stopping) return;
    stopping = true;
    front.close();
    front.closeAllConnections();
    void prism.stop().then(() => process.exit(exitCode));
  };
  for (const [signal, number] of [
    ["SIGINT", 2],
    ["SIGTERM", 15],
    ["SIGHUP", 1],
  ] as const)
    process.on(signal, () => {
      stop(128 + number);
    });
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) stop(129);
  }, 500).unref();
  front.listen(port, "127.0.0.1", () => {
    console.log(`mock: Prism is listening on http://127.0.0.1:${port} (Prism pid ${prism.pid})`);
  });
}

await main();
