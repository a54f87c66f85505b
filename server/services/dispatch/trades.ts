// Trade codes and urgencies of the contract.
export const tradeCodes = [
  "plumbing",
  "electrical",
  "hvac",
  "carpentry",
  "roofing",
  "painting",
  "locksmith",
  "appliance_repair",
] as const;
export type TradeCode = (typeof tradeCodes)[number];

export const urgencies = ["emergency", "urgent", "routine", "scheduled"] as const;
export type Urgency = (typeof urgencies)[number];
