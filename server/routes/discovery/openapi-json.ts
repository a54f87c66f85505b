import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import type { RouteFactory } from "../types.js";

const contractFile = fileURLToPath(new URL("../../../openapi.yaml", import.meta.url));

const route: RouteFactory = () => {
  const yamlText = readFileSync(contractFile, "utf8");
  const json: unknown = parse(yamlText);
  if (typeof json !== "object" || json === null) throw new Error(`${contractFile} is not an OpenAPI document`);
  return [
    { method: "GET", path: "/openapi.json", options: { auth: false, tags: ["discovery"] }, handler: () => json },
    {
      method: "GET",
      path: "/openapi.yaml",
      options: { auth: false, tags: ["discovery"] },
      handler: (_r, h) => h.response(yamlText).type("application/yaml"),
    },
  ];
};
export default route;
