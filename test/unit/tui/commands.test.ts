import { describe, expect, it } from 'vitest';
import { COMMANDS, resolveCommand, suggest, usage } from '../../../src/tui/commands.js';
import { SCREENS } from '../../../src/tui/routes.js';

const name = (r: ReturnType<typeof resolveCommand>) => ('error' in r ? `error: ${r.error}` : `${r.command.name}(${r.arg})`);

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
    expect(name(resolveCommand('a'))).toMatch(/error: unknown command "a"; try interns, new, byok, vault, attach NAME, chat NAME, profile PROFILE, login, quit/);
    expect(name(resolveCommand('zap'))).toMatch(/unknown command/);
  });
  it('suggests by the first word, and every command has help', () => {
    expect(suggest('b').map(usage)).toEqual(['byok']);
    expect(suggest('').length).toBe(COMMANDS.length);
    expect(COMMANDS.filter((c) => !c.help)).toEqual([]);
  });
});

describe('the route registry', () => {
  it('titles every screen, and only attach takes the whole terminal', () => {
    expect(Object.values(SCREENS).filter((s) => !s.title)).toEqual([]);
    expect(Object.entries(SCREENS).filter(([, s]) => s.fullScreen).map(([n]) => n)).toEqual(['attach']);
  });
});
