/**
 * `--jq EXPR` and `--template TPL`: what a command would print under `--json` (its fields picked
 * first), run through jq itself (jq 1.8, compiled to WebAssembly: the `jq-wasm` package), as gh's
 * `--jq` does with gojq. Loaded only when one of the flags is given (about 40 ms to load on an idle
 * machine; its first run compiles more of it), through importExternal: the package reads its `jq.wasm` from its own folder, so
 * it stays outside the bundle.
 *
 * The template is jq's string interpolation (`\(.name)\t\(.status)`), not a Go template as gh's
 * is: one language to learn and one engine, with escapes (`\t`, `\n`, `\"`) and formats (`@sh`,
 * `@csv`, `@base64d`...) jq's manual defines; a Go template engine in JavaScript would be a second
 * language, a look-alike of Go's, with edges no manual describes. Applied to each element of a
 * list (to the value itself otherwise), one line per element.
 */
import { importExternal } from '../importExternal.js';
import { sanitize } from '../text.js';
import { usageError } from './exit.js';

/** Turns a command's JSON value into the text to print (each jq output on its own line). */
export type JsonFilter = (value: unknown) => string;

interface JqHandle {
  raw(input: string, query: string, flags?: string[]): { stdout: string; stderr: string; exitCode: number };
}

/** jq's exit status for an expression it could not compile. */
const JQ_COMPILE_ERROR = 3;

/** A Go template (gh's `--template`) is refused with what this one takes: it would print itself. */
const GO_TEMPLATE = /\{\{/;

/** The jq program for `--template TPL`: TPL is the inside of a jq string, applied to each element of a list. */
export function templateProgram(template: string): string {
  return `(if type == "array" then .[] else . end) | "${template}"`;
}

/**
 * jq's complaint in one line: its own words (`jq: error: syntax error, unexpected ... line 1, column
 * 2`), without the excerpt it draws under them and its count of errors.
 */
export function jqMessage(stderr: string): string {
  const lines = stderr.split('\n').filter((l) => l.startsWith('jq: ') && !/^jq: \d+ compile errors?$/.test(l));
  return sanitize(lines.map((l) => l.replace(/ \(at \/dev\/stdin:\d+\)/, '').replace(/:$/, '')).join('; ')) || 'jq failed';
}

/**
 * The filter for `--jq` or `--template`, compiled: a usage error (exit 2) with jq's message when it
 * does not compile, before the command sends anything. Running it on a value that does not fit
 * (`.name` of a list) is a usage error too, with jq's message.
 */
export async function loadFilter(how: { jq?: string; template?: string }): Promise<JsonFilter> {
  const flag = how.jq !== undefined ? '--jq' : '--template';
  const given = how.jq ?? how.template ?? '';
  if (given.trim() === '') throw usageError(`${flag} is empty: give ${flag === '--jq' ? 'a jq expression, e.g. .[].name' : 'a template, e.g. \'\\(.name)\\t\\(.status)\''}`);
  if (how.template !== undefined && GO_TEMPLATE.test(how.template)) {
    throw usageError('--template takes jq string interpolation, not a Go template: \\(.name) where gh writes {{.name}}, one line per element of a list');
  }
  const program = how.jq ?? templateProgram(given);
  const { loadJq } = await importExternal<{ loadJq: () => Promise<JqHandle> }>('jq-wasm');
  const jq = await loadJq();
  // Compiled by running it on null: only a compile error stops the command here (a runtime error on
  // null, `.[]`, says nothing of the command's output).
  const probe = jq.raw('null', program, ['-r']);
  if (probe.exitCode === JQ_COMPILE_ERROR) throw usageError(`${flag}: ${jqMessage(probe.stderr)}`);
  return (value) => {
    const r = jq.raw(JSON.stringify(value ?? null), program, ['-r']);
    if (r.exitCode !== 0) throw usageError(`${flag}: ${jqMessage(r.stderr)}`);
    // Strings raw (as jq -r and gh's --jq print them), any other value as indented JSON; what the
    // service sent is sanitised as everywhere else (a raw string could carry escapes).
    return r.stdout === '' ? '' : sanitize(r.stdout, { multiline: true, tabs: true }) + '\n';
  };
}
