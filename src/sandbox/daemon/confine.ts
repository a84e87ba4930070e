/**
 * What an intern's terminal runs, and what it cannot see (issue 43). The one place that decides it.
 *
 * Where the machine allows unprivileged user namespaces (`unshare` from util-linux), the program
 * runs in a new user, mount and PID namespace with its own /proc: no other process of the machine
 * is in its sight (the sandbox's /proc/PID/environ included), and the sandbox's private paths (its
 * data folder with the database and secret.key, the manifest, the secret file, the CLI's config
 * folder) are covered: a folder by an empty read-only tmpfs, a file by /dev/null. The covering
 * mounts are made in an outer namespace and the program runs in an inner one, where they are
 * locked: it cannot unmount them. Elsewhere the program runs as before, and the sandbox says so
 * at start (confinementNote).
 *
 * Each wrapper execs: the pseudo-terminal is the program's own, and no process is added between it
 * and the daemon. The outer `unshare --fork` waits for the program (PID 1 of its namespace) and
 * exits with its status; `--kill-child` ends the program when that `unshare` is ended (a stop).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative } from 'node:path';
import { sanitize } from '../../text.js';

/**
 * `unshare`: confined; `pgrp` when perl is at hand to give the program a foreground process group
 * of its namespace (FOREGROUND). `none`: run as before, for `reason`.
 */
export type Confinement = { kind: 'unshare'; pgrp: boolean } | { kind: 'none'; reason: string };

/** A program and its arguments, as node-pty spawns them. */
export interface Program {
  file: string;
  args: string[];
}

/** The paths to cover, found on disk: folders get a tmpfs, files /dev/null. */
export interface Hidden {
  dirs: string[];
  files: string[];
}

/** The outer namespace: a user namespace (root in it is this user), mounts, PIDs and a /proc of its own. */
export const UNSHARE_OUTER = ['--user', '--map-root-user', '--mount', '--pid', '--fork', '--mount-proc', '--kill-child'] as const;
/** The inner one, where the program runs: a new user namespace locks the outer one's mounts. */
export const UNSHARE_INNER = ['--user', '--map-root-user', '--mount'] as const;

/**
 * Sets the terminal's IUTF8 flag (node-pty sets it only with its utf8 encoding, which the daemon
 * does not use: backspace then erases a whole character in a cooked-mode line) and execs the program.
 */
export const STTY_EXEC = 'stty iutf8 2>/dev/null; exec "$@"';

/**
 * Makes the program's process group one of its namespace, and the terminal's foreground one, then
 * execs it. Without it the program starts in the process group and session of the outer `unshare`
 * (the pseudo-terminal's session leader, outside the namespace, so they read as 0): dash then fails
 * to give the terminal back to that group when it exits (`Cannot set tty process group`, exit 2
 * for any `exit N`) or execs. No standard command-line tool does setpgid and tcsetpgrp; perl's
 * POSIX module does, and is on nearly every Linux system (probeConfinement looks for it).
 */
export const FOREGROUND = ['perl', '-MPOSIX', '-e', '$SIG{TTOU}="IGNORE"; setpgid(0,0); tcsetpgrp(0,$$); $SIG{TTOU}="DEFAULT"; exec {$ARGV[0]} @ARGV or exit 127', '--'] as const;

/**
 * Run by /bin/sh in the outer namespace as `sh -c HIDE_SCRIPT intern-confine PATH... -- PROGRAM...`:
 * covers each path (failing closed: a path it could not cover ends the terminal, exit 126), then
 * execs the inner namespace running what follows `--` (FOREGROUND when it is used, STTY_EXEC, the
 * program). Paths are arguments, never part of the script.
 */
export const HIDE_SCRIPT = [
  'while [ "$1" != -- ]; do',
  '  if [ -d "$1" ]; then mount -t tmpfs -o ro,mode=000,size=4k intern-hidden "$1"; else mount --bind -o ro /dev/null "$1"; fi ||',
  '    { echo "intern-tui: could not hide $1 from this terminal" >&2; exit 126; }',
  '  shift',
  'done',
  'shift',
  `exec unshare ${UNSHARE_INNER.join(' ')} "$@"`,
].join('\n');

/** What node-pty spawns for `program`: confined as `confinement` says, hiding `hidden`. */
export function terminalArgv(confinement: Confinement, program: Program, hidden: Hidden): Program {
  if (confinement.kind === 'none') return { file: '/bin/sh', args: ['-c', STTY_EXEC, 'intern-terminal', program.file, ...program.args] };
  const inner = [...(confinement.pgrp ? FOREGROUND : []), '/bin/sh', '-c', STTY_EXEC, 'intern-terminal', program.file, ...program.args];
  return { file: 'unshare', args: [...UNSHARE_OUTER, '/bin/sh', '-c', HIDE_SCRIPT, 'intern-confine', ...hidden.dirs, ...hidden.files, '--', ...inner] };
}

/** Whether `child` is `parent` or inside it (both resolved paths). */
export const within = (child: string, parent: string): boolean => {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/**
 * The private paths as they are on disk now: resolved (a symbolic link covers what it points to),
 * missing ones left out, and those inside another covered folder too (they are gone with it; a
 * mount on them would fail). A covered folder must not hold the program's working folder.
 */
export function hiddenPaths(paths: readonly string[], cwd: string): Hidden {
  const found: { path: string; dir: boolean }[] = [];
  for (const p of paths) {
    let path: string;
    try {
      path = realpathSync(p);
    } catch {
      continue; // not there: nothing to cover
    }
    found.push({ path, dir: statSync(path).isDirectory() });
  }
  const dirs = found.filter((f) => f.dir).map((f) => f.path);
  const out: Hidden = { dirs: [], files: [] };
  for (const f of found) {
    if (dirs.some((d) => d !== f.path && within(f.path, d))) continue;
    if (f.dir && within(cwd, f.path)) throw new Error(`the terminal's folder ${cwd} is inside ${f.path}, which its program must not see`);
    const list = f.dir ? out.dirs : out.files;
    if (!list.includes(f.path)) list.push(f.path);
  }
  return out;
}

/** The sandbox's own secrets are not passed on to the program's environment. */
const PRIVATE_ENV = /^(OPENROUTER_|INTERN_SANDBOX_SECRET)/;

/** The program's environment: the sandbox's, without its secrets, with the terminal's TERM. */
export function terminalEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && !PRIVATE_ENV.test(k)) out[k] = v;
  out.TERM = 'xterm-256color';
  out.COLORTERM = 'truecolor';
  return out;
}

/** The one line the sandbox prints at start when it cannot confine the terminals (else none). */
export function confinementNote(c: Confinement): string | undefined {
  if (c.kind !== 'none') return undefined;
  return `the interns' terminals are not confined (${c.reason}): their programs can read whatever this user can, the sandbox's data folder, manifest and /proc/PID/environ included (docs/sandbox.md)`;
}

const PROBE_TIMEOUT_MS = 5000;
let probed: Promise<Confinement> | undefined;

/**
 * Whether terminals can be confined here: runs the whole chain once (a folder covered, a PID
 * namespace of its own) on a scratch folder. Cached for the process (each worker thread probes once).
 */
export function probeConfinement(): Promise<Confinement> {
  return (probed ??= runProbe());
}

/** The probe under way, if one is: stopProbe ends its processes. */
let probing: AbortController | undefined;

/**
 * Ends a probe under way (its processes killed, its scratch folder removed) and settles once it has;
 * at once when none runs. The sandbox's close calls it: waiting for the probe held a close for up to
 * its timeout, and not waiting left an `intern-confine-` folder. A probe so stopped answers nothing:
 * the next one asks again.
 */
export async function stopProbe(): Promise<void> {
  const running = probed;
  if (!running || !probing) return;
  probing.abort();
  await running.then(() => undefined, () => undefined);
  if (probed === running) probed = undefined;
}

function run(file: string, args: readonly string[], signal: AbortSignal): Promise<{ error: (Error & { code?: unknown }) | null; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { env: terminalEnv(), timeout: PROBE_TIMEOUT_MS, signal }, (error, _stdout, stderr) => resolve({ error, stderr: String(stderr) }));
  });
}

async function runProbe(): Promise<Confinement> {
  if (process.platform !== 'linux') return { kind: 'none', reason: `${process.platform} has no Linux namespaces` };
  let dir: string;
  try {
    dir = mkdtempSync(join(tmpdir(), 'intern-confine-'));
    writeFileSync(join(dir, 'seen'), '');
  } catch (e) {
    return { kind: 'none', reason: `no scratch folder to test it in: ${(e as Error).message}` };
  }
  const controller = new AbortController();
  probing = controller;
  try {
    const perl = run(FOREGROUND[0], ['-MPOSIX', '-e', '1'], controller.signal);
    // The whole chain on a covered scratch folder: the file in it unseen, the program PID 1 of its namespace.
    const program = { file: '/bin/sh', args: ['-c', '[ ! -e "$1" ] && [ "$$" = 1 ]', 'intern-probe', join(dir, 'seen')] };
    const { file, args } = terminalArgv({ kind: 'unshare', pgrp: false }, program, { dirs: [dir], files: [] });
    const chain = await run(file, args, controller.signal);
    if (chain.error) {
      const said = sanitize(chain.stderr.trim().split('\n')[0] ?? '').slice(0, 120);
      const reason = chain.error.code === 'ENOENT' ? 'unshare (util-linux) is not installed' : said ? `unshare failed: ${said}` : 'user namespaces are not available';
      return { kind: 'none', reason };
    }
    return { kind: 'unshare', pgrp: (await perl).error === null };
  } finally {
    if (probing === controller) probing = undefined;
    rmSync(dir, { recursive: true, force: true });
  }
}
