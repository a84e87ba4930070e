import { describe, expect, it } from 'vitest';
import { COMMANDS, completeLine, resolveCommand, suggest, usage, wantsName } from '../../../src/tui/commands.js';
import { SCREENS } from '../../../src/tui/routes.js';

const name = (r: ReturnType<typeof resolveCommand>) => ('error' in r ? `error: ${r.error}` : `${r.command.name}(${r.arg})`);

describe("the palette's tab", () => {
  const names = ['runner', 'runner-jpeg', 'reviewer', 'plain'];
  it('completes a command, with a space after one that takes an argument, as far as the names agree', () => {
    expect(completeLine('at', names)).toBe('attach ');
    expect(completeLine('b', names)).toBe('byok');
    expect(completeLine('pro', names)).toBe('profile ');
    // "in" and nothing else: interns; "" or a prefix two commands share adds nothing more than they share.
    expect(completeLine('in', names)).toBe('interns');
    expect(completeLine('', names)).toBeNull();
    expect(completeLine('xyz', names)).toBeNull();
  });
  it("completes an intern's name after attach and chat (or their prefixes and aliases), not after other commands", () => {
    expect(completeLine('attach p', names)).toBe('attach plain');
    expect(completeLine('attach r', names)).toBeNull(); // runner, runner-jpeg, reviewer share "r" only
    expect(completeLine('attach ru', names)).toBe('attach runner');
    expect(completeLine('attach runner-', names)).toBe('attach runner-jpeg');
    expect(completeLine('at rev', names)).toBe('attach reviewer');
    expect(completeLine('talk pl', names)).toBe('chat plain');
    expect(completeLine('profile r', names)).toBeNull();
    expect([wantsName('attach '), wantsName('attach'), wantsName('profile x'), wantsName('chat r'), wantsName('open ')]).toEqual([true, false, false, true, true]);
  });
});

describe('the command registry', () => {
  it('resolves whole names, aliases and unambiguous prefixes', () => {
    expect(name(resolveCommand('interns'))).toBe('interns()');
    expect(name(resolveCommand('i'))).toBe('interns()');
    expect(name(resolveCommand('by'))).toBe('byok()');
    expect(name(resolveCommand('q'))).toBe('quit()');
    expect(name(resolveCommand('attach my bot'))).toBe('attach(my bot)');
    expect(name(resolveCommand('at runner'))).toBe('attach(runner)');
  });
  it('asks for a missing argument and names the commands when the word is unknown', () => {
    expect(name(resolveCommand('attach'))).toMatch(/error: attach needs an intern name: attach NAME/);
    expect(name(resolveCommand('a'))).toMatch(/error: unknown command "a"; try interns, new, byok, vault, open NAME, attach NAME, split NAME, replay, chat NAME, profile PROFILE, login, sort COLUMN, quit/);
    expect(name(resolveCommand('zap'))).toMatch(/unknown command/);
    // A near miss is answered with the command it probably was; a word after one that takes none is refused.
    expect(name(resolveCommand('intrens'))).toBe('error: unknown command "intrens" (did you mean interns?)');
    expect(name(resolveCommand('quit now'))).toBe('error: quit takes no argument: "now" is one too many');
  });
  it('suggests by the first word, and every command has help', () => {
    expect(suggest('b').map(usage)).toEqual(['byok']);
    expect(suggest('').length).toBe(COMMANDS.length);
    expect(COMMANDS.filter((c) => !c.help)).toEqual([]);
  });
});

describe('the route registry', () => {
  it('titles every screen, and only attach and a recording playing take the whole terminal', () => {
    expect(Object.values(SCREENS).filter((s) => !s.title)).toEqual([]);
    expect(Object.entries(SCREENS).filter(([, s]) => s.fullScreen).map(([n]) => n)).toEqual(['attach', 'recording']);
  });
});

describe('findIntern', () => {
  it('says a failed look-up in a line or two, however long the reason (a proxy page)', async () => {
    const { findIntern } = await import('../../../src/tui/commands.js');
    const api = {
      listInterns: async () => {
        throw new Error(`upstream failure ${'word '.repeat(500)}end`);
      },
    };
    const r = await findIntern(api as never, 'abc', 'open');
    expect('error' in r && r.error).toMatch(/^could not look up abc: upstream failure word .*…$/);
    expect('error' in r && r.error.length).toBeLessThanOrEqual(160);
  });
});

describe(':sort COLUMN', () => {
  const sort = COMMANDS.find((c) => c.name === 'sort')!;
  it('completes and checks the columns of the list the shell shows, and says when there is none', async () => {
    const { parseSort, registerSortTarget } = await import('../../../src/tui/state/sort.js');
    const shell = { flash: () => {} } as never;
    expect(sort.check?.(shell, 'name')).toBe('this screen has no list to sort');
    const columns = [{ header: 'NAME', sort: { kind: 'text' as const, by: (r: string) => r } }, { header: 'STATUS', sort: { kind: 'status' as const, by: (r: string) => r } }];
    const applied: unknown[] = [];
    const undo = registerSortTarget(shell, { columns: ['name', 'status'], parse: (a) => parseSort(a, columns), apply: (s) => applied.push(s) });
    expect(completeLine('sort st', [...sort.choices!(shell)])).toBe('sort status');
    expect(sort.check?.(shell, 'stat desc')).toBeNull();
    expect(sort.check?.(shell, 'nmae')).toBe('no column "nmae" here (did you mean name?); columns: name, status');
    await sort.run({ nav: shell } as never, 'stat desc');
    expect(applied).toEqual([{ column: 'status', direction: 'desc' }]);
    undo();
  });
});
