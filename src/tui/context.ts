import { createContext, useContext } from 'react';
import type { InternApi } from '../client/types.js';
import type { Intern } from '../contract/intern.js';
import type { ByokCredential } from '../contract/byok.js';
import type { Scope } from './keymap.js';
import type { TuiOptions } from './types.js';

export type Route =
  | { name: 'interns' }
  /**
   * `seed`: the intern as the previous screen had it, drawn while the fresh copy loads. `ask`: the
   * list's suspend or delete, opened with its confirmation (asked once: not again on coming back).
   */
  | { name: 'intern'; id: string; seed?: Intern; ask?: 'suspend' | 'delete' }
  | { name: 'settings'; id: string; seed?: Intern }
  | { name: 'create' }
  /** Without `internId`: the workspace's secrets. */
  | { name: 'vault'; internId?: string }
  | { name: 'chat'; id: string; seed?: Intern }
  /** The intern's saved conversations (from the chat, ^g). */
  | { name: 'chatSessions'; id: string; seed?: Intern }
  | { name: 'connections'; id: string }
  /** The chat and the live terminal side by side (`w` on a running intern, `:split NAME`). */
  | { name: 'split'; intern: Intern }
  /** `record`: this session is recorded (`:attach NAME --record`). */
  | { name: 'attach'; intern: Intern; record?: boolean }
  /** The recordings (`:replay`). */
  | { name: 'replay' }
  /** A recording playing (full screen): its file, and the intern it is of. */
  | { name: 'recording'; path: string; title: string }
  | { name: 'byok' }
  /** `ask`: the list's delete, opened with its question (asked once). */
  | { name: 'byokDetails'; id: string; ask?: 'delete' }
  | { name: 'byokForm'; id?: string; seed?: ByokCredential };

export interface Nav {
  push: (route: Route) => void;
  pop: () => void;
  replace: (route: Route) => void;
  /** Leaves this screen for `route`: back to the nearest such screen below (what is above it goes), else in place of this one. */
  returnTo: (route: Route) => void;
  /** Resets the stack to one top-level screen. */
  home: (route: Route) => void;
  quit: () => void;
  /** A one-line message in the footer (sanitized before it is drawn). */
  flash: (text: string, kind?: 'info' | 'error') => void;
}

export interface TuiContextValue {
  api: InternApi;
  options: TuiOptions;
  nav: Nav;
  /** False while an overlay (help, palette) has the keyboard. */
  active: boolean;
  /** Screens that take typed text say so, so global keys stand aside. */
  setCapture: (capturing: boolean) => void;
  /** A screen whose `esc` has work of its own (clearing an applied filter) says so: the app's `esc` (back) then stands aside. */
  claimCancel: (claimed: boolean) => void;
  /** Screens declare the key scopes the footer lists. */
  setScopes: (scopes: Scope[]) => void;
  size: { columns: number; rows: number };
  /**
   * The screen's pane (the terminal less the header and footer), handed down by the shell.
   * `covered`: something is drawn below the screen, over the pane's last rows (the command
   * palette, a sign-in box), and the shell clips the screen above it.
   */
  pane: { columns: number; rows: number; covered: boolean };
}

export const TuiContext = createContext<TuiContextValue | null>(null);

export function useTui(): TuiContextValue {
  const ctx = useContext(TuiContext);
  if (!ctx) throw new Error('useTui outside the TUI');
  return ctx;
}
