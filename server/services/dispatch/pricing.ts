// The disclosed wage -> billed model shared by the estimate, the trade index and quotes.
import { oewsSource, tradeWages } from "../../data/oews-wages.js";
import { tradeCodes, type TradeCode, type Urgency } from "./trades.js";
import type { ValidBody } from "../../types/contract.js";

export const pricingModel = {
  model_version: "wage-to-billed/1",
  labor_burden_multiplier: 1.35,
  overhead_and_margin_multiplier: 2.4,
  urgency_multipliers: { emergency: 2, urgent: 1.5, routine: 1, scheduled: 0.95 },
  trip_charge_dollars: 45,
} as const;

const round2 = (n: number) => Math.round(n * 100) / 100;
const usd = (cents: number) => (cents / 100).toFixed(2);

/** Hourly price for a wage at an urgency: wage x burden x overhead/margin x urgency. */
export function billedHourly(wage: number, urgency: Urgency): number {
  const m = pricingModel;
  return round2(wage * m.labor_burden_multiplier * m.overhead_and_margin_multiplier * m.urgency_multipliers[urgency]);
}

/** Price of one typical job in cents: hourly x typical hours + trip charge. */
export function jobCents(hourlyDollars: number, typicalHours: number): number {
  return Math.round((hourlyDollars * typicalHours + pricingModel.trip_charge_dollars) * 100);
}

export function modelAssumptions(trade?: TradeCode) {
  return {
    ...pricingModel,
    urgency_multipliers: { ...pricingModel.urgency_multipliers },
    typical_hours: trade ? tradeWages[trade].typicalHours : 2,
  };
}

/** createEstimate's body after validation (joi has applied the `urgency` default). */
export type EstimateInput = ValidBody<"createEstimate">;

export function estimate(input: EstimateInput) {
  const wage = tradeWages[input.trade];
  const hourly = billedHourly(wage.median, input.urgency);
  return {
    trade: input.trade,
    location: input.location,
    urgency: input.urgency,
    national_baseline: true,
    wage_basis: {
      median_hourly_dollars: wage.median,
      p25_hourly_dollars: wage.p25,
      p75_hourly_dollars: wage.p75,
      source: {
        ...oewsSource,
        url: `https://www.bls.gov/oes/current/oes${wage.soc_code.replace("-", "")}.htm`,
        soc_code: wage.soc_code,
        soc_title: wage.soc_title,
      },
    },
    billed_estimate: {
      hourly_rate_dollars: hourly,
      typical_hours: wage.typicalHours,
      low_cents: jobCents(billedHourly(wage.p25, input.urgency), wage.typicalHours),
      point_cents: jobCents(hourly, wage.typicalHours),
      high_cents: jobCents(billedHourly(wage.p75, input.urgency), wage.typicalHours),
      currency: "USD" as const,
    },
    model: modelAssumptions(input.trade),
    disclaimer: "Modeled from national wage statistics; not a quote and not adjusted for your location.",
    generated_at: new Date().toISOString(),
  };
}

export function tradeIndex() {
  return {
    generated_at: new Date().toISOString(),
    national_baseline: true,
    source: {
      name: oewsSource.name,
      publisher: oewsSource.publisher,
      release: oewsSource.release,
      url: oewsSource.url,
    },
    model: modelAssumptions(),
    wage_vs_billed: {
      explanation:
        "median_rate_dollars, p25 and p75 are hourly wages: what a technician earns, not a price. billed_hourly_rate_routine_dollars adds labor burden, overhead and margin; it is a model rate, not a verbatim statistic.",
      formula:
        "billed_hourly = median_wage × labor_burden_multiplier × overhead_and_margin_multiplier × urgency_multiplier (routine = 1)",
      rates_are_model_rates: true,
    },
    trades: tradeCodes.map((code) => {
      const w = tradeWages[code];
      return {
        code,
        name: w.name,
        soc_code: w.soc_code,
        soc_title: w.soc_title,
        median_rate_dollars: w.median,
        medianRateDollars: w.median, // deprecated twin (openapi.yaml)
        p25: w.p25,
        p75: w.p75,
        billed_hourly_rate_routine_dollars: billedHourly(w.median, "routine"),
        billedHourlyRateRoutineDollars: billedHourly(w.median, "routine"), // deprecated twin
      };
    }),
  };
}

export { usd };
