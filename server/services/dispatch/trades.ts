// Trade codes and urgencies of the contract.
import { contractEnums } from "../../generated/contract.js";
import type { Schemas } from "../../types/contract.js";

export const tradeCodes = contractEnums.TradeCode;
export type TradeCode = Schemas["TradeCode"];

export const urgencies = contractEnums.Urgency;
export type Urgency = Schemas["Urgency"];
