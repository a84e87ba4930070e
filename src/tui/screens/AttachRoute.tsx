/** The attach route: the attach screen wired to the shell (detach goes back to the intern; provision from here, then attached once it runs). */
import { useTui } from '../context.js';
import type { Intern } from '../../contract/intern.js';
import { sanitize } from '../../text.js';
import { AttachScreen } from './AttachScreen.js';

export function AttachRoute({ intern, record }: { intern: Intern; record?: boolean }) {
  const { api, nav, options } = useTui();
  // `:attach NAME --record`, or the profile's `record: always`.
  const recording = record === true || options.record === 'always';
  return (
    <AttachScreen
      api={api}
      intern={intern}
      scrollback={options.scrollback}
      record={recording ? { dir: options.recordingsDir ?? null } : undefined}
      onRecorded={(message, kind) => nav.flash(message, kind)}
      // Back to the details it was opened from (not a second copy of them above), else in its place.
      onDetach={() => nav.returnTo({ name: 'intern', id: intern.id, seed: intern })}
      // Provisioned from here, the screen waits for it to run and attaches.
      onProvision={() => api.provisionIntern(intern.id).then(() => nav.flash(`provisioning ${sanitize(intern.name)}`))}
    />
  );
}
