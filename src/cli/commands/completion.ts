/**
 * `completion bash|zsh|fish` prints the script a shell loads, and `__complete` (hidden, run by
 * those scripts on every tab) prints what may come at the cursor (complete.ts holds the rules).
 * The scripts only pass the line over and hand the answer to the shell: the words before the
 * cursor and the one being typed in, candidates (or `@files`) out.
 */
import { shortIdLength } from '../../client/resolve.js';
import { INTERN_PAGE } from '../../client/pages.js';
import { LIMITS } from '../../contract/limits.js';
import { ROUTES } from '../../contract/routes.js';
import { checkName } from '../../contract/rules.js';
import { sanitize } from '../../text.js';
import { type Candidate, complete, type FieldSource, type LineFlags, type NameKind, type NameSource, offerLines, SHELLS, type Shell } from '../complete.js';
import type { Io } from '../context.js';
import type { RunContext } from '../context.js';
import { EXIT, nearest, usageError } from '../exit.js';
import { configPath, usesEmbeddedSandbox } from '../settings.js';

/** How long a tab waits for the service's interns before offering none. */
const NAMES_DEADLINE_MS = 1500;

const BASH = `# intern-tui completion for bash. Load it from ~/.bashrc:
#   eval "$(intern-tui completion bash)"
_intern_tui_complete() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prefix="" out line
  local -a words=("\${COMP_WORDS[@]:1:COMP_CWORD-1}")
  # bash splits --flag=value at the "=": intern-tui gets it back whole, and its answers lose the
  # "--flag=" that bash keeps on the line.
  if [[ "$cur" == "=" && COMP_CWORD -ge 2 ]]; then
    prefix="\${COMP_WORDS[COMP_CWORD-1]}="
    words=("\${COMP_WORDS[@]:1:COMP_CWORD-2}")
    cur=""
  elif [[ COMP_CWORD -ge 3 && "\${COMP_WORDS[COMP_CWORD-1]}" == "=" ]]; then
    prefix="\${COMP_WORDS[COMP_CWORD-2]}="
    words=("\${COMP_WORDS[@]:1:COMP_CWORD-3}")
  fi
  out=$(intern-tui __complete "\${words[@]}" "$prefix$cur" 2>/dev/null | cut -f1) || return 0
  COMPREPLY=()
  if [[ "$out" == "@files" ]]; then
    compopt -o filenames 2>/dev/null
    while IFS= read -r line; do COMPREPLY+=("$line"); done < <(compgen -f -- "$cur")
    return 0
  fi
  while IFS= read -r line; do
    [[ -n "$line" ]] && COMPREPLY+=("\${line#"$prefix"}")
  done <<< "$out"
}
complete -F _intern_tui_complete intern-tui
`;

const ZSH = `#compdef intern-tui
# intern-tui completion for zsh. Load it from ~/.zshrc, after compinit:
#   eval "$(intern-tui completion zsh)"
_intern_tui() {
  local -a lines described
  local line
  lines=("\${(@f)$(intern-tui __complete "\${(@)words[2,CURRENT-1]}" "\${words[CURRENT]}" 2>/dev/null)}")
  if [[ "\${lines[1]}" == "@files" ]]; then
    _files
    return
  fi
  for line in "\${lines[@]}"; do
    [[ -z "$line" ]] && continue
    if [[ "$line" == *$'\\t'* ]]; then
      described+=("\${\${line%%$'\\t'*}//:/\\\\:}:\${line#*$'\\t'}")
    else
      described+=("\${line//:/\\\\:}")
    fi
  done
  _describe -t values 'intern-tui' described
}
compdef _intern_tui intern-tui
`;

const FISH = `# intern-tui completion for fish. Load it from ~/.config/fish/config.fish:
#   intern-tui completion fish | source
function __intern_tui_complete
    set -l words (commandline -opc)
    set -l current (commandline -ct)
    set -l out (intern-tui __complete $words[2..-1] "$current" 2>/dev/null)
    if test "$out[1]" = "@files"
        __fish_complete_path "$current"
    else
        printf '%s\\n' $out
    end
end
complete -c intern-tui -f -a '(__intern_tui_complete)'
`;

export const SCRIPTS: Record<Shell, string> = { bash: BASH, zsh: ZSH, fish: FISH };

export async function completion(ctx: RunContext): Promise<number> {
  const shell = ctx.positionals[0]!;
  if (!(SHELLS as readonly string[]).includes(shell)) throw usageError(`completion is for ${SHELLS.join(', ')}, not "${sanitize(shell).slice(0, 40)}"${nearest(shell, SHELLS)}`);
  ctx.io.stdout.write(SCRIPTS[shell as Shell]);
  return EXIT.ok;
}

/**
 * The names of the service the line would talk to (its --profile and --base-url), or the config
 * file's profiles. None from the embedded sandbox, none without the credential the list needs,
 * none when the service is slow or fails: a tab offers what it can and says nothing.
 */
function namesFrom(env: NodeJS.ProcessEnv): NameSource {
  return async (kind: NameKind, line: LineFlags): Promise<Candidate[]> => {
    const { readConfig } = await import('../config.js');
    if (kind === 'profiles') return Object.keys(readConfig(configPath(env)).profiles).map((value) => ({ value }));
    if (line.sandbox) return [];
    const { resolveSignedIn } = await import('../auth/credentials.js');
    const resolved = await resolveSignedIn({ profile: line.profile, baseUrl: line.baseUrl }, { env, path: configPath(env), warn: () => undefined });
    // The credential the list's route takes (contract/routes.ts).
    const needs = (kind === 'byok' ? ROUTES.listByok : kind === 'secrets' ? ROUTES.listVaultSecrets : ROUTES.listInterns).credential;
    if (usesEmbeddedSandbox(false, resolved) || (needs !== 'none' && !resolved.credentials[needs])) return [];
    const { createClient } = await import('../../client/index.js');
    const api = createClient({ baseUrl: resolved.baseUrl, credentials: resolved.credentials });
    const signal = AbortSignal.timeout(NAMES_DEADLINE_MS);
    if (kind === 'interns') return offeredNames((await api.listInterns({ limit: INTERN_PAGE }, { signal })).data);
    if (kind === 'byok') return offeredKeys((await api.listByok({ offset: 0, limit: LIMITS.byokList.maxLimit }, { signal })).data);
    const { checkSecretName } = await import('../../contract/vault.js');
    let secrets;
    if (line.intern) {
      const { matchInterns } = await import('../../client/resolve.js');
      const intern = (await matchInterns(api, line.intern, { signal })).one;
      if (!intern) return [];
      secrets = await api.listInternSecrets(intern.id, { limit: LIMITS.vaultList.maxLimit }, { signal });
    } else secrets = await api.listVaultSecrets({ limit: LIMITS.vaultList.maxLimit }, { signal });
    // Names the contract allows only (a-z 0-9 _), so nothing a shell would glob or split.
    return secrets.data.filter((x) => checkSecretName(x.name) === null).map((x) => ({ value: x.name, ...(x.hosts?.length ? { description: sanitize(x.hosts.join(', ')) } : {}) }));
  };
}

/** A BYOK key by its id (an id is all `byok get` takes), described by its provider and name. */
export function offeredKeys(keys: readonly { id: string; provider: string; name: string | null; label: string }[]): Candidate[] {
  return keys.filter((k) => /^[\w-]+$/.test(k.id)).map((k) => ({ value: k.id, description: sanitize(`${k.provider} · ${k.name ?? k.label}`) }));
}

/**
 * Server strings reach the terminal and the shell: only names the contract allows (a-z 0-9 -,
 * nothing a shell would split, glob or quote), each with its status sanitised. A name two interns
 * share names neither (the command refuses it): each is offered by the start of its id instead,
 * as interns list shows it, with its name beside it.
 */
export function offeredNames(interns: readonly { id: string; name: string; status: string }[]): Candidate[] {
  const named = interns.filter((i) => checkName(i.name) === null);
  const count = new Map<string, number>();
  for (const i of named) count.set(i.name, (count.get(i.name) ?? 0) + 1);
  const length = shortIdLength(interns.map((i) => i.id));
  return named.flatMap((i): Candidate[] => {
    if (count.get(i.name) === 1) return [{ value: i.name, description: sanitize(i.status) }];
    const id = i.id.slice(0, length);
    return /^[\w-]+$/.test(id) ? [{ value: id, description: `${i.name} · ${sanitize(i.status)}` }] : [];
  });
}

/**
 * `intern-tui __complete WORD... CURRENT`: always exit 0, never a word on stderr. The dispatcher
 * hands in `fieldsOf`, which loads a command for its `--json` fields; tests hand in `source` too.
 */
export async function runComplete(args: string[], io: Pick<Io, 'stdout' | 'env'>, fieldsOf: FieldSource, source: NameSource = namesFrom(io.env), deadlineMs = NAMES_DEADLINE_MS): Promise<number> {
  const words = args.slice(0, -1);
  const current = args.at(-1) ?? '';
  // The whole lookup within the deadline, a keychain that does not answer included: a tab that
  // hangs is worse than one that offers nothing.
  const quiet: NameSource = (kind, line) => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<Candidate[]>((resolve) => (timer = setTimeout(() => resolve([]), deadlineMs)));
    return Promise.race([source(kind, line).catch(() => []), late]).finally(() => clearTimeout(timer));
  };
  try {
    io.stdout.write(offerLines(await complete(words, current, quiet, fieldsOf)));
  } catch {
    // Nothing to offer.
  }
  return EXIT.ok;
}
