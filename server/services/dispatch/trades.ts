// Trade codes, urgencies and US states of the contract.
import { contractEnums } from "../../generated/contract.js";
import type { Schemas } from "../../types/contract.js";

export const tradeCodes = contractEnums.TradeCode;
export type TradeCode = Schemas["TradeCode"];

export const urgencies = contractEnums.Urgency;
export type Urgency = Schemas["Urgency"];

export type UsState = Schemas["UsState"];

/** The state as the contract spells it, whatever the case it was given in. */
export const usStateOf = (state: UsState): UsState =>
  contractEnums.UsState.find((code) => code === state.toUpperCase()) ?? state;
