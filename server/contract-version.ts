// The API version everywhere (health, agent card, MCP, capability index): openapi.yaml's info.version, read once.
import { readContract } from "./contract.js";

export const contractVersion: string = readContract().info.version;
