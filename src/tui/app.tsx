/** The shell: header, the current screen, overlays and the footer. Screens own their data and keys. */
import { Box, Text, useApp } from 'ink';
import { Suspense, lazy, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { CommandPalette, type PaletteCommand } from './components/CommandPalette.js';
import { Footer } from './components/Footer.js';
import { Header } from './components/Header.js';
import { HelpOverlay, helpScrollMax } from './components/HelpOverlay.js';
import { type Nav, type Route, TuiContext, type TuiContextValue } from './context.js';
import { useKeys } from './hooks/useKeys.js';
import { useTerminalSize } from './hooks/useTerminalSize.js';
import { matches, type Scope } from './keymap.js';
import { sanitize } from './sanitize.js';
import { ByokDetails } from './screens/ByokDetails.js';
import { ByokForm } from './screens/ByokForm.js';
import { ByokList } from './screens/ByokList.js';
import { Connections } from './screens/Connections.js';
import { InternDetails } from './screens/InternDetails.js';
import { InternList } from './screens/InternList.js';
import { InternSettings } from './screens/InternSettings.js';
import { theme } from './theme.js';
import type { TuiOptions } from './types.js';

/** The attach screen (the emulator, the WebSocket transport) loads when first opened, not at start-up. */
const AttachScreen = lazy(() => import('./screens/AttachScreen.js').then((m) => ({ default: m.AttachScreen })));

const TITLES: Record<Route['name'], string> = {
  interns: 'Interns',
  intern: 'Intern',
  settings: 'Settings',
  connections: 'Connections',
  attach: 'Attach',
  byok: 'BYOK credentials',
  byokDetails: 'Credential',
  byokForm: 'Credential form',
};

export function App({ options, initial = { name: 'interns' } }: { options: TuiOptions; initial?: Route }) {
  const { exit } = useApp();
  const size = useTerminalSize();
  const [stack, setStack] = useState<Route[]>([initial]);
  const [overlay, setOverlay] = useState<'help' | 'palette' | null>(null);
  // A screen that takes every key (a text field, a confirmation) says so here; set in its layout
  // effects, it holds before the key pump lets the next key go.
  const captureRef = useRef(false);
  const setCapture = useCallback((c: boolean) => {
    captureRef.current = c;
  }, []);
  const [scopes, setScopes] = useState<Scope[]>(['global']);
  const [helpScroll, setHelpScroll] = useState(0);
  // The main pane: the screen less the header, its rule and the footer (and Ink's last line).
  const paneRows = Math.max(3, size.rows - 4);
  const [flash, setFlash] = useState<{ text: string; kind: 'info' | 'error' } | null>(
    options.warnings.length > 0 ? { text: options.warnings.join(' · '), kind: 'error' } : null,
  );
  const flashTimer = useRef<NodeJS.Timeout | undefined>(undefined);
  const top = stack[stack.length - 1]!;

  // Navigating ends the text capture of the screen being left; the next screen claims its own on mount.
  const go = useCallback((next: (s: Route[]) => Route[]) => {
    captureRef.current = false;
    setStack(next);
  }, []);
  const nav: Nav = useMemo(
    () => ({
      push: (r) => go((s) => [...s, r]),
      pop: () => go((s) => (s.length > 1 ? s.slice(0, -1) : s)),
      replace: (r) => go((s) => [...s.slice(0, -1), r]),
      returnTo: (r) =>
        go((s) => {
          const below = s[s.length - 2];
          return below && sameScreen(below, r) ? [...s.slice(0, -2), r] : [...s.slice(0, -1), r];
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

  const runCommand = useCallback(
    async (c: PaletteCommand) => {
      setOverlay(null);
      if (c.kind === 'quit') return exit();
      if (c.kind === 'interns') return nav.home({ name: 'interns' });
      if (c.kind === 'byok') return nav.home({ name: 'byok' });
      try {
        let after: string | undefined;
        for (let pages = 0; pages < 20; pages++) {
          const page = await options.api.listInterns({ limit: 500, starting_after: after });
          const found = page.data.find((i) => i.name === c.name);
          if (found) return nav.push({ name: 'attach', intern: found });
          if (!page.has_more || !page.next_cursor) break;
          after = page.next_cursor;
        }
        nav.flash(`no intern named "${sanitize(c.name)}"`, 'error');
      } catch (e) {
        nav.flash(`could not look up ${sanitize(c.name)}: ${sanitize((e as Error).message)}`, 'error');
      }
    },
    [exit, nav, options.api],
  );

  const attached = top.name === 'attach';
  useKeys((input, key) => {
    if (key.ctrl && input === 'c') return exit();
    if (overlay === 'help') {
      if (key.escape || matches('help', input, key) || input === 'q') setOverlay(null);
      else if (matches('down', input, key)) setHelpScroll((n) => Math.min(helpScrollMax(size.columns, paneRows), n + 1));
      else if (matches('up', input, key)) setHelpScroll((n) => Math.max(0, n - 1));
      return;
    }
    if (overlay || captureRef.current) return;
    if (matches('help', input, key)) {
      setHelpScroll(0);
      return setOverlay('help');
    }
    if (matches('palette', input, key)) return setOverlay('palette');
    if (matches('back', input, key)) return stack.length > 1 ? nav.pop() : exit();
    if (matches('cancel', input, key)) return nav.pop();
    if (matches('interns', input, key)) return nav.home({ name: 'interns' });
    if (matches('byok', input, key)) return nav.home({ name: 'byok' });
  }, !attached);

  const ctx: TuiContextValue = {
    api: options.api,
    options,
    nav,
    active: overlay === null,
    setCapture,
    setScopes,
    size,
  };

  if (top.name === 'attach') {
    return (
      <TuiContext.Provider value={ctx}>
        <Suspense fallback={<Text>Opening the terminal…</Text>}>
        <AttachScreen
          api={options.api}
          intern={top.intern}
          scrollback={options.scrollback}
          onDetach={() => nav.replace({ name: 'intern', id: top.intern.id, seed: top.intern })}
          onProvision={() => {
            void options.api.provisionIntern(top.intern.id).then(
              () => nav.flash(`provisioning ${sanitize(top.intern.name)}`),
              (e: unknown) => nav.flash(sanitize((e as Error).message), 'error'),
            );
            nav.replace({ name: 'intern', id: top.intern.id });
          }}
        />
        </Suspense>
      </TuiContext.Provider>
    );
  }

  return (
    <TuiContext.Provider value={ctx}>
      <Box flexDirection="column" width={size.columns} height={Math.max(1, size.rows - 1)}>
        <Header options={options} title={TITLES[top.name]} />
        <Box borderStyle="single" borderColor={theme.muted} borderLeft={false} borderRight={false} borderBottom={false} />
        {/* The screen keeps its own height and is clipped at the bottom when the palette opens below it. */}
        <Box flexDirection="column" flexGrow={1} flexShrink={1} overflow="hidden">
          <Box flexDirection="column" flexShrink={0}>
            {overlay === 'help' ? <HelpOverlay width={size.columns} height={paneRows} scroll={helpScroll} /> : <Screen route={top} />}
          </Box>
        </Box>
        {overlay === 'palette' ? <CommandPalette onRun={(c) => void runCommand(c)} onClose={() => setOverlay(null)} /> : null}
        <Footer scopes={scopes} flash={flash} />
      </Box>
    </TuiContext.Provider>
  );
}

/** Two routes show the same screen: the same kind and the same thing (a seed or a note does not count). */
function sameScreen(a: Route, b: Route): boolean {
  const id = (r: Route) => ('id' in r ? r.id : 'intern' in r ? r.intern.id : undefined);
  return a.name === b.name && id(a) === id(b);
}

function Screen({ route }: { route: Route }) {
  switch (route.name) {
    case 'interns':
      return <InternList />;
    case 'intern':
      return <InternDetails key={route.id} id={route.id} seed={route.seed} />;
    case 'settings':
      return <InternSettings id={route.id} />;
    case 'connections':
      return <Connections id={route.id} />;
    case 'byok':
      return <ByokList />;
    case 'byokDetails':
      return <ByokDetails key={route.id} id={route.id} />;
    case 'byokForm':
      return <ByokForm id={route.id} />;
    case 'attach':
      return <Text>…</Text>;
  }
}
