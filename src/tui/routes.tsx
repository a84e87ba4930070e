/**
 * The route registry: every screen once, with its title, how it is drawn and
 * whether it takes the whole terminal (no header, footer or shell keys). A new
 * screen is added by writing it, naming its route in context.ts, and adding a
 * line here.
 */
import type { ReactNode } from 'react';
import type { Route } from './context.js';
import { onFirstUse } from './components/onFirstUse.js';
import { ByokDetails } from './screens/ByokDetails.js';
import { ByokForm } from './screens/ByokForm.js';
import { ByokList } from './screens/ByokList.js';
import { CreateIntern } from './screens/CreateIntern.js';
import { Connections } from './screens/Connections.js';
import { InternDetails } from './screens/InternDetails.js';
import { InternList } from './screens/InternList.js';
import { InternSettings } from './screens/InternSettings.js';
import { VaultScreen } from './screens/VaultScreen.js';

// The attach screen (terminal emulator, WebSocket transport) and the chat (marked, the Markdown
// renderer) load when first opened.
const AttachRoute = onFirstUse('attach', async () => (await import('./screens/AttachRoute.js')).AttachRoute, 'attaching…');
// A recording plays through the same emulator as attach, loaded when first played.
const Recordings = onFirstUse('recordings', async () => (await import('./screens/Recordings.js')).Recordings, 'reading the recordings…');
const PlayRecording = onFirstUse('replay', async () => (await import('./screens/PlayRecording.js')).PlayRecording, 'loading the player…');
const ChatScreen = onFirstUse('chat', async () => (await import('./screens/ChatScreen.js')).ChatScreen, 'opening the chat…');
const ConversationList = onFirstUse('chatSessions', async () => (await import('./screens/chat/ConversationList.js')).ConversationList, 'reading the conversations…');
// The chat and the emulator together, loaded when first opened.
const SplitScreen = onFirstUse('split', async () => (await import('./screens/SplitScreen.js')).SplitScreen, 'opening the split view…');

type RouteOf<N extends Route['name']> = Extract<Route, { name: N }>;

export interface ScreenDef<N extends Route['name']> {
  /** The header's title: fixed, or from the route (a new credential or one being edited). */
  title: string | ((route: RouteOf<N>) => string);
  render: (route: RouteOf<N>) => ReactNode;
  /** Draws the whole terminal itself: the shell adds no header or footer and handles no keys. */
  fullScreen?: boolean;
}

export const SCREENS: { [N in Route['name']]: ScreenDef<N> } = {
  interns: { title: 'Interns', render: () => <InternList /> },
  intern: { title: 'Intern', render: (r) => <InternDetails key={r.id} id={r.id} seed={r.seed} ask={r.ask} /> },
  settings: { title: 'Settings', render: (r) => <InternSettings id={r.id} seed={r.seed} /> },
  connections: { title: 'Connections', render: (r) => <Connections id={r.id} /> },
  create: { title: 'New intern', render: () => <CreateIntern /> },
  vault: { title: 'Vault secrets', render: (r) => <VaultScreen key={r.internId ?? 'workspace'} internId={r.internId} /> },
  chat: { title: 'Chat', render: (r) => <ChatScreen key={r.id} id={r.id} seed={r.seed} /> },
  chatSessions: { title: 'Conversations', render: (r) => <ConversationList key={r.id} id={r.id} seed={r.seed} /> },
  split: { title: 'Chat and terminal', render: (r) => <SplitScreen key={r.intern.id} intern={r.intern} /> },
  attach: { title: 'Attach', render: (r) => <AttachRoute intern={r.intern} record={r.record} />, fullScreen: true },
  replay: { title: 'Recordings', render: () => <Recordings /> },
  recording: { title: 'Recording', render: (r) => <PlayRecording path={r.path} title={r.title} />, fullScreen: true },
  byok: { title: 'BYOK credentials', render: () => <ByokList /> },
  byokDetails: { title: 'Credential', render: (r) => <ByokDetails key={r.id} id={r.id} ask={r.ask} /> },
  byokForm: { title: (r) => (r.id ? 'Edit credential' : 'New credential'), render: (r) => <ByokForm id={r.id} seed={r.seed} /> },
};

/** The screen's definition for a route. */
export function screenOf<N extends Route['name']>(route: RouteOf<N>): ScreenDef<N> {
  return SCREENS[route.name as N];
}

/** The header's title for a route. */
export function titleOf(route: Route): string {
  const { title } = SCREENS[route.name] as ScreenDef<Route['name']>;
  return typeof title === 'string' ? title : title(route as never);
}

/** Draws a route's screen. */
export function renderRoute(route: Route): ReactNode {
  return (SCREENS[route.name] as ScreenDef<Route['name']>).render(route as never);
}
