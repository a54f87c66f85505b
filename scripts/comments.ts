// The comments of a TypeScript or JavaScript source, read with the compiler's scanner (template literals re-scanned,
// so a `//` inside a string is not a comment): what the structure measure and the comment-path test read.
import ts from "typescript";

export interface Comment {
  /** 1-based lines the comment spans. */
  from: number;
  to: number;
  text: string;
}

/** Every comment of `text`, and the lines that hold code. */
export function scanComments(text: string): { comments: Comment[]; codeLines: Set<number> } {
  const lineStarts = [0, ...[...text.matchAll(/\n/g)].map((match) => match.index + 1)];
  const lineOf = (pos: number) => {
    let [low, high] = [0, lineStarts.length - 1];
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      if (lineStarts[mid] <= pos) low = mid;
      else high = mid - 1;
    }
    return low + 1;
  };
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, text);
  const comments: Comment[] = [];
  const codeLines = new Set<number>();
  const braces: ("{" | "`")[] = []; // a template's `${` closes by re-scanning its rest as template text
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (kind === ts.SyntaxKind.OpenBraceToken) braces.push("{");
    if (kind === ts.SyntaxKind.TemplateHead) braces.push("`");
    if (kind === ts.SyntaxKind.CloseBraceToken && braces.pop() === "`") {
      kind = scanner.reScanTemplateToken(false);
      if (kind === ts.SyntaxKind.TemplateMiddle) braces.push("`");
    }
    if (kind === ts.SyntaxKind.WhitespaceTrivia || kind === ts.SyntaxKind.NewLineTrivia) continue;
    const [from, to] = [lineOf(scanner.getTokenStart()), lineOf(scanner.getTokenEnd())];
    if (kind === ts.SyntaxKind.SingleLineCommentTrivia || kind === ts.SyntaxKind.MultiLineCommentTrivia)
      comments.push({ from, to, text: scanner.getTokenText() });
    else for (let line = from; line <= to; line++) codeLines.add(line);
  }
  return { comments, codeLines };
}
