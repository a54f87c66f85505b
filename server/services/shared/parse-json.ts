// The one tolerant JSON parse for text the server stored itself: only a tampered row fails it, so failure is
// a value for the caller to report, not an exception.

export function parseStoredJson(text: string): { value: unknown } | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return { value };
  } catch {
    return undefined;
  }
}
