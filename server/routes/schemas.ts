// joi pieces shared by route validations; bounds mirror openapi.yaml.
import Joi from "joi";
import { tradeCodes, urgencies } from "../services/dispatch/trades.js";

export const trade = Joi.string().valid(...tradeCodes);
export const urgency = Joi.string()
  .valid(...urgencies)
  .default("routine");
export const state = Joi.string().length(2);

export const quoteLocation = Joi.object({
  state: state.required(),
  zip: Joi.string().max(10),
  city: Joi.string().max(255),
});

export const orderLocation = quoteLocation.keys({
  address: Joi.string().max(1000),
  name: Joi.string().max(500),
});

export const pageQuery = {
  limit: Joi.number().integer().min(1).max(200).default(50),
  cursor: Joi.string().max(200),
};
