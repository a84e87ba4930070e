/**
 * A bulk action's course on a list screen: asked (one confirmation listing the rows), running
 * (each row's progress, esc stops), done (the failures first, with their reasons). The screen
 * opens it with `ask`, draws BulkPanel in its list's place while `phase` is set, and declares
 * `scopes` (each phase takes every key).
 */
import { useMemo, useRef, useState } from 'react';
import type { Scope } from '../keymap.js';
import { type BulkPlan, type BulkProgress, type BulkRun, runBulk } from '../state/bulk.js';

export interface BulkAsk<T> {
  plan: BulkPlan<T>;
  /** `Suspend`, `Suspending`, `suspended`: the question's, the progress's and the end's words. */
  words: { verb: string; doing: string; done: string };
  /** What a row is: `intern`, `credential`, `secret`. */
  noun: string;
  /** Asks for the count to be typed (deleting), not a y. */
  typeCount: boolean;
  /** Once, when the run has finished: refresh the list, keep the failed rows marked. */
  onFinished: (p: BulkProgress) => void;
}

export type BulkPhase = 'confirm' | 'running' | 'done';

export function useBulk() {
  const [ask, setAsk] = useState<BulkAsk<never> | null>(null);
  const [progress, setProgress] = useState<BulkProgress | null>(null);
  const run = useRef<BulkRun | null>(null);
  const phase: BulkPhase | null = !ask ? null : !progress ? 'confirm' : progress.finished ? 'done' : 'running';
  const typeCount = ask?.typeCount ?? false;
  // The same array while the phase stays: a screen's layout effect may depend on it.
  const scopes = useMemo<Scope[] | null>(
    () => (phase === 'confirm' ? (typeCount ? ['prompt', 'text'] : ['confirm', 'cursor']) : phase === 'running' ? ['bulkRunning', 'cursor'] : phase === 'done' ? ['bulkDone', 'cursor'] : null),
    [phase, typeCount],
  );
  return {
    ask,
    progress,
    phase,
    scopes,
    open: <T>(a: BulkAsk<T>) => {
      setProgress(null);
      setAsk(a as unknown as BulkAsk<never>);
    },
    /** Answered yes: the run starts. */
    start: () => {
      if (!ask || run.current) return;
      const started = runBulk(ask.plan, setProgress);
      run.current = started;
      void started.done.then((p) => ask.onFinished(p));
    },
    stop: () => run.current?.stop(),
    close: () => {
      run.current = null;
      setAsk(null);
      setProgress(null);
    },
  };
}

export type Bulk = ReturnType<typeof useBulk>;
