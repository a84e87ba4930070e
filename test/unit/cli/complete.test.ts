/**
 * Shell completion's rules (src/cli/complete.ts): what `__complete` offers at the cursor, from
 * the registry and a stand-in for the service's names. The scripts themselves run in real shells
 * in test/e2e/completion.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { complete, type LineFlags, type NameSource, type Offer, offerLines } from '../../../src/cli/complete.js';
import { offeredKeys, offeredNames, runComplete } from '../../../src/cli/commands/completion.js';
import { Writable } from 'node:stream';
import { COMMANDS } from '../../../src/cli/registry.js';
import { jsonFieldsOf } from '../../../src/cli/loaders.js';

/** The names a tab would get, and what it asked for. */
function names() {
  const asked: { kind: string; line: LineFlags }[] = [];
  const source: NameSource = async (kind, line) => {
    asked.push({ kind, line: { ...line } });
    if (kind === 'interns') return [{ value: 'runner', description: 'running' }, { value: 'reviewer', description: 'stopped' }, { value: 'plain' }];
    if (kind === 'byok') return [{ value: 'c1f0', description: 'openai · Production' }, { value: 'c2aa', description: 'anthropic · Team' }];
    if (kind === 'secrets') return line.intern ? [{ value: 'own_token' }] : [{ value: 'github_token' }, { value: 'npm_token' }, { value: 'slack_webhook' }];
    return [{ value: 'work' }, { value: 'home' }];
  };
  return { asked, source };
}

const values = (offer: Offer) => (offer === 'files' ? offer : offer.map((c) => c.value));
const at = async (line: string) => {
  const words = line.split(' ');
  return values(await complete(words.slice(0, -1), words.at(-1)!, names().source, jsonFieldsOf));
};

describe('shell completion', () => {
  it('offers the nouns first, each once, then the verbs of a noun', async () => {
    const nouns = [...new Set(COMMANDS.map((c) => c.noun))];
    expect(await at('')).toEqual(nouns);
    expect(await at('in')).toEqual(['interns']);
    expect(await at('interns ')).toEqual(['list', 'get', 'create', 'update', 'delete', 'provision', 'suspend', 'wait']);
    expect(await at('interns g')).toEqual(['get']);
    expect(await at('completion ')).toEqual(['bash', 'zsh', 'fish']);
    expect(await at('config s')).toEqual(['show']);
    // Not a command: nothing, rather than guesses.
    expect(await at('intrens ')).toEqual([]);
    expect(await at('interns gte ')).toEqual([]);
  });

  it("offers a command's flags, the global ones and --json where it prints JSON, not those already given", async () => {
    const flags = await at('interns list --');
    expect(flags).toEqual(expect.arrayContaining(['--status', '--limit', '--json', '--profile', '--base-url', '--sandbox', '--help']));
    expect(await at('interns list --limit 3 --')).not.toContain('--limit');
    // --status may be given again (repeatable).
    expect(await at('interns list --status running --')).toContain('--status');
    expect(await at('attach runner --')).not.toContain('--json');
    // Before any command, the TUI's flags.
    expect(await at('--')).toEqual(expect.arrayContaining(['--profile', '--scrollback', '--no-color', '--sandbox', '--version']));
    expect(await at('sandbox --')).toEqual(expect.arrayContaining(['--port', '--seed', '--manifest']));
  });

  it("offers --json's fields: the command's own, one at a time in a comma list, once the command has its arguments", async () => {
    expect(await at('interns list --json na')).toEqual(['name']);
    expect(await at('interns list --json id,st')).toEqual(['id,status']);
    expect(await at('interns list --json=id,na')).toEqual(['--json=id,name']);
    // A field already in the list is not offered again.
    expect(await at('interns list --json id,i')).toEqual(['id,instructions', 'id,icon_sha256']);
    // interns get still needs its NAME: the word after --json is the name (parse.ts), so names come.
    expect(await at('interns get --json r')).toEqual(['runner', 'reviewer']);
    expect(await at('interns get runner --json stat')).toEqual(['status']);
    // A command without --json offers none.
    expect(await at('attach runner --json=')).toEqual([]);
  });

  it("offers a flag's values by what the help says goes there", async () => {
    expect(await at('interns list --status r')).toEqual(['running']);
    // wait's --for also takes "deleted".
    expect(await at('interns wait runner --for de')).toEqual(['destroying', 'destroy_failed', 'deleted']);
    expect(await at('byok create --region ')).toEqual(['global', 'europe', 'us', 'none']);
    expect(await at('byok update ID --zdr ')).toEqual(['true', 'false', 'none']);
    expect(await at('login --with-token --kind m')).toEqual(['management_key']);
    expect(await at('byok create --provider anthro')).toEqual(['anthropic']);
    expect(await at('sandbox --seed ')).toEqual(['demo', 'empty']);
    expect(await at('interns create x --instructions-file ')).toBe('files');
    expect(await at('vault put x --value-file ~/')).toBe('files');
    expect(await at('byok create --region=e')).toEqual(['--region=europe']);
    // A value typed freely: nothing to offer.
    expect(await at('interns create x --description ')).toEqual([]);
  });

  it('offers both the verbs and the interns after chat, which stands alone and has verbs', async () => {
    const { source } = names();
    expect(values(await complete(['chat'], '', source, jsonFieldsOf))).toEqual(expect.arrayContaining(['list', 'export', 'runner']));
    expect(values(await complete(['chat', 'list'], 'r', source, jsonFieldsOf))).toEqual(['runner', 'reviewer']);
    expect(values(await complete(['chat', 'export', 'runner'], '--f', source, jsonFieldsOf))).toEqual(['--format']);
  });

  it('offers the service’s intern names where a NAME goes, for the profile and base URL typed on the line', async () => {
    const { asked, source } = names();
    expect(values(await complete(['chat'], 'r', source, jsonFieldsOf))).toEqual(['runner', 'reviewer']);
    expect(values(await complete(['--profile', 'work', 'interns', 'get'], '', source, jsonFieldsOf))).toEqual(['runner', 'reviewer', 'plain']);
    expect(values(await complete(['vault', 'list', '--base-url=http://127.0.0.1:9/api/v1', '--intern'], 'p', source, jsonFieldsOf))).toEqual(['plain']);
    expect(asked).toEqual([
      { kind: 'interns', line: { sandbox: false } },
      { kind: 'interns', line: { sandbox: false, profile: 'work' } },
      { kind: 'interns', line: { sandbox: false, baseUrl: 'http://127.0.0.1:9/api/v1' } },
    ]);
    // A NAME already given, or a command that takes none: nothing is asked.
    expect(values(await complete(['interns', 'get', 'runner'], '', source, jsonFieldsOf))).toEqual([]);
    expect(values(await complete(['interns', 'list'], '', source, jsonFieldsOf))).toEqual([]);
    expect(asked).toHaveLength(3);
    expect(values(await complete(['--profile'], '', source, jsonFieldsOf))).toEqual(['work', 'home']);
    expect(values(await complete(['config'], 'u', source, jsonFieldsOf))).toEqual(['use']);
    expect(values(await complete(['config', 'use'], 'w', source, jsonFieldsOf))).toEqual(['work']);
  });

  it("offers a BYOK key's id where an ID goes, and the secrets where a SECRET goes (the intern's with --intern)", async () => {
    const { asked, source } = names();
    const offer = async (line: string) => {
      const words = line.split(' ');
      return values(await complete(words.slice(0, -1), words.at(-1)!, source, jsonFieldsOf));
    };
    expect(await offer('byok get ')).toEqual(['c1f0', 'c2aa']);
    expect(await offer('byok delete c2')).toEqual(['c2aa']);
    expect(await offer('byok update c1f0 ')).toEqual([]);
    expect(await offer('vault delete ')).toEqual(['github_token', 'npm_token', 'slack_webhook']);
    expect(await offer('vault delete --intern runner ')).toEqual(['own_token']);
    // vault copy: the workspace's names into --intern, each once, however many are given.
    expect(await offer('vault copy --intern runner github_token ')).toEqual(['npm_token', 'slack_webhook']);
    expect(asked.map((a) => [a.kind, a.line.intern])).toEqual([
      ['byok', undefined],
      ['byok', undefined],
      ['secrets', undefined],
      ['secrets', 'runner'],
      ['secrets', undefined],
    ]);
  });

  it("offers only the service's names a shell can take as they are, and their statuses sanitised", () => {
    const hostile = [
      { id: 'aaaaaaaa-1', name: 'runner', status: 'running\x1b]0;pwned\x07' },
      { id: 'aaaaaaab-2', name: '*', status: 'running' },
      { id: 'aaaaaaac-3', name: 'a b', status: 'running' },
      { id: 'aaaaaaad-4', name: '$(rm -rf ~)', status: 'running' },
      { id: 'aaaaaaae-5', name: 'ok-2', status: 'stopped' },
    ];
    expect(offeredNames(hostile)).toEqual([
      { value: 'runner', description: 'running' },
      { value: 'ok-2', description: 'stopped' },
    ]);
    // Two interns of one name: neither name would do, so each is offered by the start of its id.
    const twins = [
      { id: '1234abcd-0000', name: 'peer-bot', status: 'running' },
      { id: '5678ef00-0000', name: 'peer-bot', status: 'stopped' },
      { id: '9abc0000-0000', name: 'solo', status: 'running' },
    ];
    expect(offeredNames(twins)).toEqual([
      { value: '1234abcd', description: 'peer-bot · running' },
      { value: '5678ef00', description: 'peer-bot · stopped' },
      { value: 'solo', description: 'running' },
    ]);
    expect(offeredKeys([{ id: 'c1-ab', provider: 'openai', name: null, label: 'sk-...WXYZ' }, { id: 'x;y', provider: 'p', name: 'n', label: 'l' }])).toEqual([
      { value: 'c1-ab', description: 'openai · sk-...WXYZ' },
    ]);
  });

  it('answers within its deadline when the names never come (a keychain or a service that hangs), and nothing on a failure', async () => {
    let out = '';
    const stdout = new Writable({ write: (c: Buffer, _e, cb) => ((out += c.toString()), cb()) });
    const hung: NameSource = () => new Promise(() => undefined);
    const started = performance.now();
    expect(await runComplete(['attach', 'r'], { stdout, env: {} }, jsonFieldsOf, hung, 50)).toBe(0);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(out).toBe('');
    const failing: NameSource = () => Promise.reject(new Error('keychain locked'));
    expect(await runComplete(['chat', 'r'], { stdout, env: {} }, jsonFieldsOf, failing, 50)).toBe(0);
    expect(out).toBe('');
    // What needs no names still answers.
    await runComplete(['interns', 'g'], { stdout, env: {} }, jsonFieldsOf, hung, 50);
    expect(out).toBe('get\tshow one intern\n');
  });

  it('prints a candidate a line with its description after a tab, or @files', () => {
    expect(offerLines([{ value: 'get', description: 'show one\tintern' }, { value: 'x' }])).toBe('get\tshow one intern\nx\n');
    expect(offerLines('files')).toBe('@files\n');
    expect(offerLines([])).toBe('');
  });
});
