// Whether one JSON Schema `pattern` accepts every string another accepts, decided on finite automata (refa), so
// the breaking-change gate can tell a rewritten request pattern that refuses nothing new from a tighter one.
// Patterns are read as ECMA-262 with the `u` flag (as ajv and our joi read them); a pattern outside what automata
// express (backreferences, assertions other than a leading `^` and a trailing `$`) is not decided.
import { DFA, isDisjointWith, JS, NFA } from "refa";

const parse = (source: string) => JS.Parser.fromLiteral({ source, flags: "u" }).parse();

/** The strings `pattern` finds a match in (JSON Schema's meaning: unanchored ends match anything), or null. */
function languageOf(pattern: string): NFA | null {
  try {
    const { expression } = parse(pattern);
    const elements = expression.alternatives.length === 1 ? expression.alternatives[0].elements : [];
    const [first, last] = [elements[0], elements.at(-1)];
    const starts = first?.source && pattern.slice(first.source.start, first.source.end) === "^";
    const ends = last?.source && last !== first && pattern.slice(last.source.start, last.source.end) === "$";
    const core = pattern.slice(starts ? 1 : 0, ends ? -1 : undefined);
    const whole = parse(`${starts ? "" : "[^]*"}(?:${core})${ends ? "" : "[^]*"}`);
    return NFA.fromRegex(whole.expression, { maxCharacter: whole.maxCharacter });
  } catch {
    return null; // an assertion inside, a backreference, or not a pattern refa parses
  }
}

/** True when `wider` accepts every string `narrower` accepts, false when it refuses one, null when undecided. */
export function patternIncludes(wider: string, narrower: string): boolean | null {
  const [outer, inner] = [languageOf(wider), languageOf(narrower)];
  if (!outer || !inner) return null;
  const refused = DFA.fromFA(outer);
  refused.complement();
  return isDisjointWith(inner, refused);
}
