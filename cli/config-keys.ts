// The settings a profile may hold, apart from the config file handling (cli/config.ts), so the command tree can
// name them in help without loading that.

/** Keys a profile may hold; each is also a global flag (`--base-url`) and an environment variable. */
export const configKeys = {
  "base-url": "DISPATCH_BASE_URL",
  "api-key": "DISPATCH_API_KEY",
  token: "DISPATCH_TOKEN",
  "admin-token": "DISPATCH_ADMIN_TOKEN",
  output: "DISPATCH_OUTPUT",
} as const;
export type ConfigKey = keyof typeof configKeys;
