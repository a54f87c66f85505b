// `dispatch completion bash|zsh`: a completion script generated from the command tree.
import type { Command } from "commander";
import { operations } from "./generated/operations.js";
import { outputFormats } from "./output.js";

/** `case` arms naming the values of enum flags: "quote --urgency" for one command, * --output for every one. */
function valueCases(): string {
  const arms = operations.flatMap((spec) =>
    spec.flags
      .filter((f) => f.enum && f.in !== "path")
      .map((f) => `    "${spec.command.join(" ")} --${f.flag}") echo "${(f.enum ?? []).join(" ")}" ;;`),
  );
  return [...new Set(arms), `    *" --output"|*" -o") echo "${outputFormats.join(" ")}" ;;`].join("\n");
}

/** Every command path ("" for the root, "orders get" …) with the words that may follow it. */
function collectWords(command: Command, path: string[] = []): [string, string[]][] {
  const subcommands = command.commands
    .filter((c) => !(c as unknown as { _hidden?: boolean })._hidden)
    .map((c) => c.name());
  const options = command.options.filter((o) => !o.hidden && o.long).map((o) => o.long!);
  const own: [string, string[]] = [path.join(" "), [...subcommands, ...options, "--help"]];
  return [own, ...command.commands.flatMap((c) => collectWords(c, [...path, c.name()]))];
}

function bashScript(program: Command): string {
  const globals = program.options.filter((o) => o.long && !o.hidden).map((o) => o.long!);
  const cases = collectWords(program)
    .map(([path, words]) => `    "${path}") echo "${[...new Set([...words, ...(path ? globals : [])])].join(" ")}" ;;`)
    .join("\n");
  return `# dispatch completion for bash; load with: source <(dispatch completion bash)
_dispatch_words() {
  case "$1" in
${cases}
  esac
}
_dispatch_values() {
  case "$1 $2" in
${valueCases()}
  esac
}
_dispatch() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" path="" next i values
  for ((i = 1; i < COMP_CWORD; i++)); do
    next="\${path:+$path }\${COMP_WORDS[i]}"
    if [[ -n "$(_dispatch_words "$next")" ]]; then path="$next"; fi
  done
  # --data @file: files after the @, whether or not the shell split the @ off as its own word.
  if [[ "$prev" == "--data" && "$cur" == @* ]]; then
    local IFS=$'\\n'; COMPREPLY=($(compgen -f -- "\${cur#@}")); COMPREPLY=("\${COMPREPLY[@]/#/@}"); return
  fi
  if [[ "$prev" == "@" && COMP_CWORD -ge 2 && "\${COMP_WORDS[COMP_CWORD-2]}" == "--data" ]]; then
    local IFS=$'\\n'; COMPREPLY=($(compgen -f -- "$cur")); return
  fi
  values="$(_dispatch_values "$path" "$prev")"
  if [[ -n "$values" ]]; then COMPREPLY=($(compgen -W "$values" -- "$cur")); return; fi
  COMPREPLY=($(compgen -W "$(_dispatch_words "$path")" -- "$cur"))
}
complete -F _dispatch dispatch
`;
}

export function completionScript(program: Command, shell: string): string {
  if (shell === "bash") return bashScript(program);
  return `#compdef dispatch
# dispatch completion for zsh; load with: source <(dispatch completion zsh)
autoload -U +X bashcompinit && bashcompinit
${bashScript(program).split("\n").slice(1).join("\n")}`;
}
