// joi for contractor bodies (admin area); bounds mirror ContractorInput in openapi.yaml.
import Joi from "joi";
import { state, trade } from "./schemas.js";

const serviceArea = Joi.object({
  state: state.required(),
  cities: Joi.array().items(Joi.string().max(255)),
  zip_prefixes: Joi.array().items(Joi.string().min(3).max(5)),
});

const fields = {
  name: Joi.string().min(1).max(200),
  trades: Joi.array().items(trade).min(1).unique(),
  service_areas: Joi.array().items(serviceArea).min(1),
  hourly_rate_cents: Joi.number().integer().min(1),
  base_response_minutes: Joi.number().integer().min(1),
  emergency_capable: Joi.boolean(),
  active: Joi.boolean(),
};

export const contractorInput = Joi.object(fields).fork(
  ["name", "trades", "service_areas", "hourly_rate_cents", "base_response_minutes"],
  (f) => f.required(),
);
export const contractorUpdate = Joi.object(fields).min(1);
