/**
 * The `:` palette: a line parsed and suggested from the command registry. Tab completes the
 * command's name, and for `attach NAME` and `chat NAME` the intern's name, from the first page of
 * interns (asked once, the first time a name is completed), as k9s's command line does.
 */
import { Box } from 'ink';
import { Text } from './Text.js';
import { useEffect, useRef, useState } from 'react';
import { INTERN_PAGE } from '../../client/pages.js';
import { checkName } from '../../contract/rules.js';
import { choosing, COMMANDS, completeLine, findIntern, resolveCommand, suggest, usage, wantsName, type ResolvedCommand } from '../commands.js';
import { useTui } from '../context.js';
import { listWithin } from '../format.js';
import { useKeys } from '../hooks/useKeys.js';
import { matches } from '../keymap.js';
import { theme } from '../theme.js';
import { TextField } from './TextField.js';

/** The names offered for a NAME take at most this many lines, then say how many more there are (typing narrows them). */
const NAME_LINES = 2;

export function CommandPalette({ onRun, onClose }: { onRun: (c: ResolvedCommand) => void; onClose: () => void }) {
  const { api, size, nav } = useTui();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  // The interns' names, once asked for (null: not yet); a tab pressed before they came completes when they do.
  const [names, setNames] = useState<string[] | null>(null);
  const [asked, setAsked] = useState(false);
  // A completed line remounts the field, so that its cursor stands at the end of what was added.
  const [completions, setCompletions] = useState(0);
  // The line as it is now, for a completion that waited for the names.
  const line = useRef(text);
  line.current = text;

  const complete = (from: readonly string[]) => {
    const done = completeLine(line.current, from);
    if (done === null) return;
    setText(done);
    setError(null);
    setCompletions((n) => n + 1);
  };

  useEffect(() => {
    if (!asked) return;
    const ctl = new AbortController();
    // Only names the contract allows: nothing a terminal would act on, and nothing to sanitise.
    api.listInterns({ limit: INTERN_PAGE }, { signal: ctl.signal }).then(
      (page) => {
        // Sorted, as a shell lists its completions (the service's order is the list's, newest first).
        const got = [...new Set(page.data.map((i) => i.name).filter((n) => checkName(n) === null))].sort();
        setNames(got);
        complete(got);
      },
      () => {
        if (!ctl.signal.aborted) setNames([]);
      },
    );
    return () => ctl.abort();
  }, [asked, api]);

  useKeys((input, key) => {
    if (matches('dismiss', input, key)) return onClose();
    if (matches('completeLine', input, key)) {
      if (!wantsName(text)) return complete(choosing(text)?.choices?.(nav) ?? []);
      if (names !== null) return complete(names);
      setAsked(true);
    }
  });
  // A NAME is looked up before the palette closes: one that names no intern stays, to be corrected.
  const [looking, setLooking] = useState(false);
  const submit = async (line: string) => {
    if (looking) return;
    const resolved = resolveCommand(line);
    if ('error' in resolved) return setError(resolved.error);
    const wrong = resolved.command.check?.(nav, resolved.arg);
    if (wrong) return setError(wrong);
    if (resolved.command.arg !== 'NAME') return onRun(resolved);
    setLooking(true);
    const found = await findIntern(api, resolved.arg, resolved.command.name);
    setLooking(false);
    if ('error' in found) return setError(found.error);
    onRun({ ...resolved, intern: found.intern });
  };
  const suggestions = suggest(text);
  const typedName = text.replace(/^\s*\S+\s+/, '');
  const nameHints = wantsName(text) && names !== null ? names.filter((n) => n.startsWith(typedName)) : null;
  // `:sort`'s columns, those of the list the palette is over.
  const choices = choosing(text)?.choices?.(nav);
  return (
    <Box flexDirection="column" flexShrink={0} borderStyle="round" borderColor={theme.accent} paddingX={1}>
      <TextField key={completions} label=":" labelWidth={4} value={text} onChange={(v) => { setText(v); setError(null); }} focused error={error} note={looking ? 'looking it up…' : null} onSubmit={(l) => void submit(l)} />
      {/* A command and its argument are joined by no-break spaces, so a wrap never parts them ("profile" / "PROFILE"). */}
      <Text color={theme.muted}>
        {choices
          ? choices.length > 0
            ? `columns: ${choices.join(' ')} · then asc or desc`
            : 'this screen has no list to sort'
          : nameHints
          ? nameHints.length > 0
            ? listWithin(nameHints, Math.max(10, size.columns - 4), NAME_LINES)
            : `no match among ${names?.length ?? 0} interns`
          : (suggestions.length > 0 ? suggestions : COMMANDS).map((c) => usage(c).replaceAll(' ', '\u00a0')).join('   ')}
      </Text>
    </Box>
  );
}
