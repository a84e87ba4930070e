/** Screens whose code loads when they are first opened (routes.tsx). */
import { type ComponentType, useEffect, useState } from 'react';
import { Text } from './Text.js';
import { noteScreenUsed } from '../usedScreens.js';

export { usedScreens } from '../usedScreens.js';

/**
 * A screen whose code loads when it is first opened, not at start-up; a line stands in while it
 * loads, then the screen replaces it. Not React.lazy: React 19 shows what a Suspense boundary was
 * waiting for no sooner than 300 ms after its fallback, which held every session's first attach
 * on "attaching…" for 300 ms although its code was ready in a few.
 */
export function onFirstUse<P extends object>(name: string, load: () => Promise<ComponentType<P>>, loading: string): ComponentType<P> {
  let loaded: ComponentType<P> | undefined;
  let loading$: Promise<ComponentType<P>> | undefined;
  return function Later(props: P) {
    const [state, setState] = useState<{ Screen?: ComponentType<P>; error?: string }>(() => ({ Screen: loaded }));
    useEffect(() => {
      if (state.Screen) return;
      let live = true;
      (loading$ ??= load().then((Screen) => {
        noteScreenUsed(name);
        return (loaded = Screen);
      })).then(
        (Screen) => live && setState({ Screen }),
        (e: unknown) => {
          loading$ = undefined;
          if (live) setState({ error: (e as Error).message });
        },
      );
      return () => {
        live = false;
      };
    }, [state.Screen]);
    if (state.Screen) return <state.Screen {...props} />;
    return <Text>{state.error === undefined ? loading : `could not load this screen: ${state.error}`}</Text>;
  };
}

