// The one check that a parsed JSON value (or an untyped library's answer) is a plain object.

/** True for an object that is neither null nor an array: its members can be read by name. */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
