import { readContract, readContractText } from "../../contract.js";
import type { RouteFactory } from "../types.js";

// Read on first request rather than at start: most servers are never asked for their contract.
const route: RouteFactory = () => {
  let json: ReturnType<typeof readContract> | undefined;
  let yamlText: string | undefined;
  return [
    {
      method: "GET",
      path: "/openapi.json",
      options: { auth: false, tags: ["discovery"] },
      handler: () => (json ??= readContract()),
    },
    {
      method: "GET",
      path: "/openapi.yaml",
      options: { auth: false, tags: ["discovery"] },
      handler: (_r, h) => h.response((yamlText ??= readContractText())).type("application/yaml"),
    },
  ];
};
export default route;
