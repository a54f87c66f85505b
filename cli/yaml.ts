// YAML output, loaded only for `-o yaml`; a static import here lets the bundler expose yaml's CommonJS names.
export { stringify } from "yaml";
