/** The shell: header, the current screen, overlays and the footer. Screens own their data and keys. */
import { Box, useApp } from 'ink';
import { Activity, Fragment, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ResolvedCommand } from './commands.js';
import { CommandPalette } from './components/CommandPalette.js';
import { Footer } from './components/Footer.js';
import { Header } from './components/Header.js';
import { Text } from './components/Text.js';
import { HelpOverlay } from './components/HelpOverlay.js';
import { type Nav, type Route, TuiContext, type TuiContextValue } from './context.js';
import { KeysShown, useKeys } from './hooks/useKeys.js';
import { ScreenMemoryContext, type ScreenMemory } from './hooks/useRemembered.js';
import { useTerminalSize } from './hooks/useTerminalSize.js';
import { matches, type Scope } from './keymap.js';
import { screen as terminal } from './output.js';
import { renderRoute, screenOf, titleOf } from './routes.js';
import { sanitize } from '../text.js';
import { theme } from './theme.js';
import { toggleExactTimes } from './times.js';
import type { TuiOptions, TuiSession } from './types.js';

/** While an overlay is open, its keys are the ones that work, and so the footer's. */
const OVERLAY_SCOPES: Record<'help' | 'palette', Scope[]> = { help: ['overlay', 'cursor'], palette: ['prompt', 'palette', 'text'] };

export function App({ options: started, initial = { name: 'interns' } }: { options: TuiOptions; initial?: Route }) {
  const { exit } = useApp();
  // `:profile NAME` and `:login` swap the session (client, profile, host); screens remount on a new serial.
  const [session, setSession] = useState<{ value: TuiSession; serial: number }>({ value: started, serial: 0 });
  const options: TuiOptions = useMemo(() => ({ ...started, ...session.value }), [started, session]);
  const [signin, setSignin] = useState<{ lines: string[]; abort: AbortController } | null>(null);
  const size = useTerminalSize();
  const [stack, setStack] = useState<Route[]>([initial]);
  const [overlay, setOverlay] = useState<'help' | 'palette' | null>(null);
  // A screen that takes every key (a text field, a confirmation) says so here; set in its layout
  // effects, it holds before the key pump lets the next key go.
  const captureRef = useRef(false);
  const setCapture = useCallback((c: boolean) => {
    captureRef.current = c;
  }, []);
  const cancelClaimRef = useRef(false);
  const claimCancel = useCallback((c: boolean) => {
    cancelClaimRef.current = c;
  }, []);
  const [scopes, setScopes] = useState<Scope[]>(['global']);
  // The main pane: the screen less the header, its rule and the footer (and Ink's last line).
  const paneRows = Math.max(3, size.rows - 4);
  const [flash, setFlash] = useState<{ text: string; kind: 'info' | 'error' } | null>(
    options.warnings.length > 0 ? { text: options.warnings.join(' · '), kind: 'error' } : null,
  );
  const flashTimer = useRef<NodeJS.Timeout | undefined>(undefined);
  const top = stack[stack.length - 1]!;
  const screen = screenOf(top);
  // Each route in the stack keeps its screen's remembered state (useRemembered) until it leaves the stack.
  const memories = useRef(new WeakMap<Route, ScreenMemory>());
  const memoryOf = (route: Route): ScreenMemory => {
    let m = memories.current.get(route);
    if (!m) memories.current.set(route, (m = new Map()));
    return m;
  };

  // Navigating ends the text capture of the screen being left; the next screen claims its own on mount.
  // A flash is about the screen it was said on (a refusal, a copy): it does not follow the user to
  // the next one. One said while going there ("saved", "deleted runner") comes after this and stays.
  const go = useCallback((next: (s: Route[]) => Route[]) => {
    captureRef.current = false;
    cancelClaimRef.current = false;
    clearTimeout(flashTimer.current);
    setFlash(null);
    setStack(next);
  }, []);
  const nav: Nav = useMemo(
    () => ({
      push: (r) => go((s) => [...s, r]),
      pop: () => go((s) => (s.length > 1 ? s.slice(0, -1) : s)),
      replace: (r) => go((s) => [...s.slice(0, -1), r]),
      returnTo: (r) =>
        go((s) => {
          // Back to the nearest such screen below, as it was left, and what was opened since goes
          // (a deleted intern's details were left above the details opened before it, and esc on
          // the list went back to them).
          const at = s.slice(0, -1).findLastIndex((below) => sameScreen(below, r));
          if (at >= 0) {
            const kept = memories.current.get(s[at]!);
            if (kept) memories.current.set(r, kept);
            return [...s.slice(0, at), r];
          }
          return [...s.slice(0, -1), r];
        }),
      home: (r) => go(() => [r]),
      quit: () => exit(),
      flash: (text, kind = 'info') => {
        clearTimeout(flashTimer.current);
        setFlash({ text, kind });
        flashTimer.current = setTimeout(() => setFlash(null), 4000);
      },
    }),
    [exit, go],
  );
  useEffect(() => () => clearTimeout(flashTimer.current), []);

  const switchTo = useCallback(
    (next: TuiSession) => {
      setSession((cur) => ({ value: next, serial: cur.serial + 1 }));
      go(() => [{ name: 'interns' }]);
    },
    [go],
  );
  const { switchProfile, signIn } = options;
  const runCommand = useCallback(
    ({ command, arg, intern, flags }: ResolvedCommand) => {
      setOverlay(null);
      void command.run(
        {
          api: options.api,
          nav,
          switchProfile: switchProfile
            ? async (name) => {
                try {
                  switchTo(await switchProfile(name));
                  nav.flash(`profile ${sanitize(name)}`);
                } catch (e) {
                  nav.flash(sanitize((e as Error).message), 'error');
                }
              }
            : undefined,
          signIn: signIn
            ? async () => {
                const abort = new AbortController();
                setSignin({ lines: [], abort });
                try {
                  const next = await signIn((line) => setSignin((cur) => (cur ? { ...cur, lines: [...cur.lines, line] } : cur)), abort.signal);
                  switchTo(next);
                  nav.flash(`signed in: profile ${sanitize(next.profile ?? '')}`);
                } catch (e) {
                  nav.flash(abort.signal.aborted ? 'sign-in cancelled' : sanitize((e as Error).message), 'error');
                } finally {
                  setSignin(null);
                }
              }
            : undefined,
        },
        arg,
        intern,
        flags,
      );
    },
    [nav, options.api, switchProfile, signIn, switchTo],
  );

  useKeys((input, key) => {
    if (matches('interrupt', input, key)) return exit();
    if (matches('toShell', input, key)) {
      if (!terminal.suspend) return nav.flash('suspending needs a terminal with job control (not on Windows)', 'error');
      if (terminal.suspend()) return;
      return nav.flash('no shell to return to: ctrl+z works when intern-tui runs from an interactive shell (fg brings it back)', 'error');
    }
    if (signin) {
      if (matches('dismiss', input, key)) signin.abort.abort();
      return;
    }
    if (overlay === 'help') {
      // The overlay scrolls itself (HelpOverlay).
      if (matches('closeOverlay', input, key)) setOverlay(null);
      return;
    }
    if (overlay || captureRef.current) return;
    if (matches('help', input, key)) {
      return setOverlay('help');
    }
    if (matches('palette', input, key)) return setOverlay('palette');
    if (matches('back', input, key)) return stack.length > 1 ? nav.pop() : exit();
    if (matches('cancel', input, key)) return cancelClaimRef.current ? undefined : nav.pop();
    if (matches('interns', input, key)) return nav.home({ name: 'interns' });
    if (matches('byok', input, key)) return nav.home({ name: 'byok' });
    if (matches('exactTimes', input, key)) return toggleExactTimes();
  }, !screen.fullScreen);

  const ctx: TuiContextValue = {
    api: options.api,
    options,
    nav,
    active: overlay === null,
    setCapture,
    claimCancel,
    setScopes,
    size,
    pane: { columns: size.columns, rows: paneRows, covered: overlay === 'palette' || signin !== null },
  };

  const draw = (route: Route) => (
    <ScreenMemoryContext.Provider value={memoryOf(route)}>
      <Fragment key={session.serial}>{renderRoute(route)}</Fragment>
    </ScreenMemoryContext.Provider>
  );
  // A full-screen route (attach, a recording) draws the terminal itself. The screen it was opened
  // from stays mounted under it, hidden (React's Activity: its effects, so its polling and its keys,
  // are stopped, its state kept), so that leaving, the detach key back to the intern's details, shows
  // it again rather than building it and the shell's header and footer anew (bench row 4).
  const shown = screen.fullScreen ? stack.at(-2) : top;
  const shell = shown ? (
    <Activity mode={screen.fullScreen ? 'hidden' : 'visible'}>
      <KeysShown.Provider value={!screen.fullScreen}>{chrome(shown)}</KeysShown.Provider>
    </Activity>
  ) : null;
  return (
    <TuiContext.Provider value={ctx}>
      {shell}
      {screen.fullScreen ? draw(top) : null}
    </TuiContext.Provider>
  );

  /** The shell around a route's screen: the header, its rule, the screen, and the footer (called, not a component: its type must not change between renders). */
  function chrome(route: Route) {
    return (
      <Box flexDirection="column" width={size.columns} height={Math.max(1, size.rows - 1)}>
        <Header options={options} title={titleOf(route)} width={size.columns} />
        <Box borderStyle="single" borderColor={theme.muted} borderLeft={false} borderRight={false} borderBottom={false} flexShrink={0} />
        {/* The screen keeps its own height and is clipped at the bottom when the palette opens below it. Only
            vertically: Ink clips horizontally by running slice-ansi over every line of every frame (screens fit
            their width themselves; docs/architecture.md). */}
        <Box flexDirection="column" flexGrow={1} flexShrink={1} overflowY="hidden">
          <Box flexDirection="column" flexShrink={0}>
            {overlay === 'help' ? <HelpOverlay width={size.columns} height={paneRows} scopes={scopes} /> : draw(route)}
          </Box>
        </Box>
        {signin ? (
          <Box flexDirection="column" flexShrink={0} borderStyle="round" borderColor={theme.accent} paddingX={1}>
            {signin.lines.map((line, i) => (
              <Text key={i}>{line}</Text>
            ))}
            <Text color={theme.muted}>Waiting for the browser... (esc cancels)</Text>
          </Box>
        ) : null}
        {overlay === 'palette' ? <CommandPalette onRun={runCommand} onClose={() => setOverlay(null)} /> : null}
        <Footer scopes={overlay ? OVERLAY_SCOPES[overlay] : scopes} flash={flash} width={size.columns} />
      </Box>
    );
  }
}

/** Two routes show the same screen: the same kind and the same thing (a seed or a note does not count). */
function sameScreen(a: Route, b: Route): boolean {
  const id = (r: Route) => ('id' in r ? r.id : 'intern' in r ? r.intern.id : undefined);
  return a.name === b.name && id(a) === id(b);
}
