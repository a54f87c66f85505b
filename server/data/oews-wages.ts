// National hourly wage figures per trade from BLS Occupational Employment and Wage Statistics (OEWS),
// May 2023 national estimates, transcribed by hand into this table (re-check against the BLS tables on
// each data refresh; the release below is cited in every response that uses them).
import type { TradeCode } from "../services/dispatch/trades.js";

export const oewsSource = {
  name: "Occupational Employment and Wage Statistics (OEWS)",
  publisher: "U.S. Bureau of Labor Statistics",
  release: "May 2023 National Occupational Employment and Wage Estimates",
  reference_period: "May 2023",
  url: "https://www.bls.gov/oes/tables.htm",
} as const;

export interface TradeWage {
  name: string;
  soc_code: string;
  soc_title: string;
  p25: number;
  median: number;
  p75: number;
  /** Typical billed hours for one job of this trade (model assumption). */
  typicalHours: number;
}

export const tradeWages: Record<TradeCode, TradeWage> = {
  plumbing: {
    name: "Plumbing",
    soc_code: "47-2152",
    soc_title: "Plumbers, Pipefitters, and Steamfitters",
    p25: 23.46,
    median: 29.59,
    p75: 38.97,
    typicalHours: 2,
  },
  electrical: {
    name: "Electrical",
    soc_code: "47-2111",
    soc_title: "Electricians",
    p25: 23.6,
    median: 29.61,
    p75: 38.32,
    typicalHours: 2.5,
  },
  hvac: {
    name: "Heating, ventilation and air conditioning",
    soc_code: "49-9021",
    soc_title: "Heating, Air Conditioning, and Refrigeration Mechanics and Installers",
    p25: 22.37,
    median: 27.55,
    p75: 34.54,
    typicalHours: 2.5,
  },
  carpentry: {
    name: "Carpentry",
    soc_code: "47-2031",
    soc_title: "Carpenters",
    p25: 21.15,
    median: 27.09,
    p75: 34.69,
    typicalHours: 4,
  },
  roofing: {
    name: "Roofing",
    soc_code: "47-2181",
    soc_title: "Roofers",
    p25: 19.93,
    median: 24.05,
    p75: 30.21,
    typicalHours: 4,
  },
  painting: {
    name: "Painting",
    soc_code: "47-2141",
    soc_title: "Painters, Construction and Maintenance",
    p25: 19.07,
    median: 22.93,
    p75: 28.37,
    typicalHours: 6,
  },
  locksmith: {
    name: "Locksmith",
    soc_code: "49-9094",
    soc_title: "Locksmiths and Safe Repairers",
    p25: 18.5,
    median: 23.16,
    p75: 29.02,
    typicalHours: 1,
  },
  appliance_repair: {
    name: "Appliance repair",
    soc_code: "49-9031",
    soc_title: "Home Appliance Repairers",
    p25: 18.03,
    median: 22.75,
    p75: 28.83,
    typicalHours: 1.5,
  },
};
