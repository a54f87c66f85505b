import { readContract, readContractText } from "../../contract.js";
import type { RouteFactory } from "../types.js";
import { operationRoute } from "../operation-route.js";

// Read on first request rather than at start: most servers are never asked for their contract.
const route: RouteFactory = () => {
  let json: ReturnType<typeof readContract> | undefined;
  let yamlText: string | undefined;
  return [
    operationRoute("getOpenApiJson", { handler: () => (json ??= readContract()) }),
    operationRoute("getOpenApiYaml", {
      handler: (_r, h) => h.response((yamlText ??= readContractText())).type("application/yaml"),
    }),
  ];
};
export default route;
