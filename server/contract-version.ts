// The API version everywhere (health, agent card, MCP, capability index): openapi.yaml's info.version, read once.
import { readFileSync } from "node:fs";
import { parse } from "yaml";

const contract = parse(readFileSync(new URL("../openapi.yaml", import.meta.url), "utf8")) as {
  info: { version: string };
};

export const contractVersion: string = contract.info.version;
