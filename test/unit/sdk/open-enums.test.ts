// Open enums (x-extensible-enum): a value the client was not generated with passes through the SDK untouched.
import assert from "node:assert/strict";
import { createDispatchClient } from "../../../sdk/index.js";

describe("sdk: open enums", () => {
  it("returns an order whose status is unknown to this SDK version as it came", async () => {
    const order = { id: "ord_01JD8XB3C5D7E9F1G3H5J7K9M1", status: "awaiting_parts", trade: "plumbing" };
    const fetch = () =>
      Promise.resolve(new Response(JSON.stringify(order), { headers: { "content-type": "application/json" } }));
    const client = createDispatchClient({
      baseUrl: "http://127.0.0.1:9",
      apiKey: "dispatch_test_x",
      fetch,
      retry: false,
    });
    const { data, error } = await client.GET("/api/dispatch/v1/orders/{id}", { params: { path: { id: order.id } } });
    assert.equal(error, undefined);
    assert.equal(data?.status, "awaiting_parts");
  });
});
