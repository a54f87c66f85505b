// The links of a markdown file, read with marked's lexer (links in code are not links), and the anchors a markdown
// file offers, slugged as GitHub slugs headings (github-slugger: duplicates get -1, -2 …).
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import GithubSlugger from "github-slugger";
import { Lexer, walkTokens, type Token } from "marked";

/** The plain text of inline tokens, as a heading renders it (code spans keep their text, markup goes). */
function plainText(tokens: readonly Token[]): string {
  return tokens
    .map((token) => {
      if ("tokens" in token && Array.isArray(token.tokens) && token.tokens.length > 0) return plainText(token.tokens);
      return token.type === "html" ? "" : "text" in token ? String(token.text) : "";
    })
    .join("");
}

/** The `#anchors` GitHub gives the headings of `markdown`, in order. */
export function anchorsOf(markdown: string): string[] {
  const slugger = new GithubSlugger();
  const anchors: string[] = [];
  walkTokens(Lexer.lex(markdown), (token) => {
    if (token.type === "heading") anchors.push(slugger.slug(plainText(token.tokens ?? [])));
  });
  return anchors;
}

/** Every link and image target of `markdown`, as written. */
export function linksOf(markdown: string): string[] {
  const targets: string[] = [];
  walkTokens(Lexer.lex(markdown), (token) => {
    if (token.type === "link" || token.type === "image") targets.push(token.href);
  });
  return targets;
}

/** What is wrong with each relative link of the file at `path` (under `root`): a missing file or anchor. */
export function brokenLinks(root: string, path: string): string[] {
  const markdown = readFileSync(join(root, path), "utf8");
  return linksOf(markdown).flatMap((href) => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(href)) return []; // another site (https:, mailto:): not checked offline
    const [file = "", anchor] = href.split("#", 2);
    const target = file === "" ? join(root, path) : join(root, dirname(path), decodeURIComponent(file));
    const shown = `${path}: ${href}`;
    if (!target.startsWith(root)) return [`${shown} leaves the repository`];
    if (!existsSync(target)) return [`${shown}: no ${relative(root, target)}`];
    if (anchor === undefined) return [];
    if (!target.endsWith(".md")) return [`${shown}: an anchor into a file that is not markdown`];
    return anchorsOf(readFileSync(target, "utf8")).includes(anchor) ? [] : [`${shown}: no heading with that anchor`];
  });
}
