// Reads a child Node process's memory through its inspector (started with `--inspect=127.0.0.1:<port>`), after a
// forced full garbage collection: what the process holds, not garbage the collector has not yet needed to reclaim.
// RSS cannot tell the two apart (V8 keeps freed pages and sizes its heap by its own heuristics).

/** Calls `method` on the inspector session `socket` and resolves with its result. */
function call(socket: WebSocket, id: number, method: string, params: object = {}): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: MessageEvent) => {
      const answer = JSON.parse(String(message.data)) as { id?: number; result?: unknown; error?: unknown };
      if (answer.id !== id) return;
      socket.removeEventListener("message", onMessage);
      if (answer.error) reject(new Error(`${method}: ${JSON.stringify(answer.error)}`));
      else resolve(answer.result);
    };
    socket.addEventListener("message", onMessage);
    socket.send(JSON.stringify({ id, method, params }));
  });
}

/** JS heap in use and memory outside it (Buffers, ArrayBuffers, WebAssembly memories), after a full collection. */
export async function heldBytes(inspectorPort: number): Promise<{ heapUsed: number; external: number }> {
  const response = await fetch(`http://127.0.0.1:${inspectorPort}/json/list`);
  const [target] = (await response.json()) as { webSocketDebuggerUrl: string }[];
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve, { once: true });
    socket.addEventListener("error", reject, { once: true });
  });
  try {
    await call(socket, 1, "HeapProfiler.collectGarbage");
    const answer = (await call(socket, 2, "Runtime.evaluate", {
      expression: "JSON.stringify(process.memoryUsage())",
      returnByValue: true,
    })) as { result: { value: string } };
    const usage = JSON.parse(answer.result.value) as NodeJS.MemoryUsage;
    return { heapUsed: usage.heapUsed, external: usage.external };
  } finally {
    socket.close();
  }
}
