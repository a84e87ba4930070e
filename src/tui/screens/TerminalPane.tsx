/**
 * The split view's terminal pane: an attach session (attach/session.ts) whose
 * frames Ink draws, from the emulator's visible rows as styled runs
 * (attach/runs.ts), inside the pane Ink lays out; the session never writes to
 * the terminal. The remote is sized to the pane less its status row, and is
 * resized with it. Keys reach it through `input` (SplitScreen routes them).
 */
import { Box, type DOMElement } from 'ink';
import { useEffect, useImperativeHandle, useRef, useState, type Ref } from 'react';
import { lineRuns, type Run } from '../../attach/runs.js';
import { AttachSession } from '../../attach/session.js';
import { WebSocketTransport } from '../../attach/transport.js';
import { ApiError } from '../../client/errors.js';
import type { DaemonAccess, Intern } from '../../contract/intern.js';
import { REASONS } from '../../contract/errors.js';
import { sanitize } from '../../text.js';
import { Text } from '../components/Text.js';
import { explain } from '../components/ErrorView.js';
import { useTui } from '../context.js';
import type { PaneSize } from '../splitLayout.js';
import { theme } from '../theme.js';
import { placeOf } from '../mouse.js';
import { moveReports } from '../../attach/mouse.js';

/** What the split screen drives: raw keys for the remote. */
export interface TerminalPaneHandle {
  input: (chunk: string) => void;
}

type Phase = { kind: 'connecting' } | { kind: 'attached'; session: AttachSession } | { kind: 'failed'; message: string };

export function TerminalPane({ intern, size, focused, onDetach, handle }: { intern: Intern; size: PaneSize; focused: boolean; onDetach: () => void; handle: Ref<TerminalPaneHandle> }) {
  const { api, options } = useTui();
  const [phase, setPhase] = useState<Phase>({ kind: 'connecting' });
  const [, setFrame] = useState(0);
  const sizeNow = useRef(size);
  sizeNow.current = size;
  const detach = useRef(onDetach);
  detach.current = onDetach;
  /** The size the remote was last given, `COLSxROWS`. */
  const sent = useRef('');
  // Where the pane is on the screen: the remote's cells start a row below its top (the status row).
  const box = useRef<DOMElement>(null);

  // Daemon access first (the token stays in this closure, in memory only), then the session.
  useEffect(() => {
    let live = true;
    let session: AttachSession | undefined;
    let access: DaemonAccess | null = null;
    (async () => {
      access = await api.getDaemonAccess(intern.id);
      if (!live) return;
      const cols = Math.max(1, sizeNow.current.columns);
      const rows = Math.max(2, sizeNow.current.rows);
      sent.current = `${cols}x${rows}`;
      session = new AttachSession({
        title: `intern ${sanitize(intern.name)}`,
        cols,
        rows,
        scrollback: options.scrollback,
        // Ink draws the pane: the session's own writes (clears, its status bar, bracketed paste) go nowhere.
        write: () => undefined,
        onFrame: () => setFrame((n) => n + 1),
        onDetach: () => detach.current(),
        makeTransport: (handlers, remote) =>
          new WebSocketTransport({
            ...remote,
            handlers,
            access: async (freshToken) => {
              if (freshToken || !access) access = await api.getDaemonAccess(intern.id);
              return access;
            },
          }),
      });
      session.start();
      setPhase({ kind: 'attached', session });
    })().catch((error: unknown) => {
      if (!live) return;
      const notRunning = error instanceof ApiError && error.reason === REASONS.intern_not_running;
      setPhase({ kind: 'failed', message: notRunning ? `${sanitize(intern.name)} is not running: no terminal to show` : explain(error).title });
    });
    return () => {
      live = false;
      session?.dispose();
      access = null;
    };
  }, [api, intern.id, intern.name, options.scrollback]);

  const session = phase.kind === 'attached' ? phase.session : null;
  // The daemon gets the pane's size (less the status row) whenever the pane changes.
  useEffect(() => {
    if (!session) return;
    const cols = Math.max(1, size.columns);
    const rows = Math.max(2, size.rows);
    if (sent.current !== `${cols}x${rows}`) session.resize(cols, rows);
    sent.current = `${cols}x${rows}`;
  }, [session, size.columns, size.rows]);

  // The session reads mouse reports as if its status row were the screen's top: the pane's is elsewhere.
  useImperativeHandle(handle, () => ({
    input: (chunk) => {
      const place = box.current ? placeOf(box.current) : null;
      session?.input(place ? moveReports(chunk, -place.rect.x, -place.rect.y) : chunk);
    },
  }), [session]);

  const width = Math.max(1, size.columns);
  const statusText = session ? session.status() : phase.kind === 'failed' ? phase.message : `intern ${sanitize(intern.name)}: connecting…`;
  return (
    <Box ref={box} flexDirection="column" width={width} height={Math.max(1, size.rows)} overflow="hidden">
      <Text inverse={focused} color={focused ? undefined : theme.muted} wrap="truncate-end">
        {statusText.slice(0, width).padEnd(width)}
      </Text>
      {session ? <Rows session={session} rows={Math.max(1, size.rows - 1)} focused={focused} /> : null}
    </Box>
  );
}

/** The emulator's visible rows, the cursor drawn as a block while the pane has focus. Cost: the pane's cells. */
function Rows({ session, rows, focused }: { session: AttachSession; rows: number; focused: boolean }) {
  const { model } = session;
  const cell = model.term.buffer.active.getNullCell();
  const top = model.term.buffer.active.viewportY;
  const cursor = model.cursor;
  const lines: Run[][] = [];
  for (let y = 0; y < Math.min(rows, model.rows); y++) {
    lines.push(lineRuns(model.term, top + y, cell, focused && cursor.visible && cursor.y === y ? cursor.x : -1));
  }
  return (
    <>
      {lines.map((runs, y) => (
        <Text key={y} wrap="truncate-end">
          {runs.length === 0
            ? ' '
            : runs.map((run, i) => (
                <Text key={i} {...run.style}>
                  {run.text}
                </Text>
              ))}
        </Text>
      ))}
    </>
  );
}
