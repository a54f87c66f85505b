// The install steps the READMEs and guides show work today: no @dispatch package is fetched from the registry by its name (none
// is published, and `npx --yes @dispatch/…` would run whatever holds the name), and each tarball they install is the
// one `npm pack` writes for the package's current version (test/packaging/*-pack*.test.ts install those tarballs).
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { root } from "../helpers/server-process.js";

interface Manifest {
  name: string;
  version: string;
}

const guides = readdirSync(join(root, "docs"))
  .filter((name) => name.endsWith(".md"))
  .map((name) => `docs/${name}`);
const docs = ["README.md", ...guides, "cli/README.md", "sdk/README.md", "server/README.md"];
const read = (path: string) => readFileSync(join(root, path), "utf8");
const packages = ["cli", "sdk", "server"].map((dir) => ({
  dir,
  manifest: JSON.parse(read(`${dir}/package.json`)) as Manifest,
}));

/** npm pack's file name: the scope's `@` dropped and its `/` made a dash, then the version. */
const tarballOf = ({ name, version }: Manifest) => `${name.replace(/^@/, "").replace("/", "-")}-${version}.tgz`;

/** A package manager told to fetch a @dispatch package by name (comments after `#` aside). */
const fetchByName =
  /\b(?:npm\s+(?:install|i|add)|npx|pnpm\s+(?:add|dlx)|yarn\s+(?:add|dlx))\b[^#\n]*\s@dispatch\/[\w-]+/;

describe("install steps in the READMEs and guides", () => {
  for (const doc of docs)
    it(`${doc} fetches no @dispatch package from the registry by name`, () => {
      const lines = read(doc)
        .split("\n")
        .filter((line) => fetchByName.test(line));
      assert.deepEqual(lines, []);
    });

  for (const doc of docs)
    it(`${doc} names each package's tarball as npm pack writes it for the current version`, () => {
      const named = [...read(doc).matchAll(/\bdispatch-(?:cli|sdk|server)-[\w.-]+?\.tgz\b/g)].map((m) => m[0]);
      const packed = packages.map((p) => tarballOf(p.manifest));
      assert.deepEqual(
        named.filter((name) => !packed.includes(name)),
        [],
      );
    });

  for (const { dir, manifest } of packages)
    it(`${dir}/README.md installs ${manifest.name} from its tarball`, () => {
      const installs = read(`${dir}/README.md`)
        .split("\n")
        .filter((line) => /\bnpm\s+(?:install|i)\b/.test(line) && line.includes(tarballOf(manifest)));
      assert.ok(installs.length > 0, `no \`npm install …${tarballOf(manifest)}\` in ${dir}/README.md`);
    });
});
