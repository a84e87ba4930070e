/** What every end-to-end file needs: one sandbox process for the file, and the TUIs a test opened closed after it. */
import { afterAll, afterEach, beforeAll } from 'vitest';
import { type SandboxProcess, Tui, type TuiOptions, startSandboxProcess } from './harness.js';

export function e2eSuite(): { sandbox: () => SandboxProcess; open: (opts?: TuiOptions) => Tui } {
  let sb: SandboxProcess | undefined;
  const tuis: Tui[] = [];
  beforeAll(async () => {
    sb = await startSandboxProcess();
  });
  afterAll(() => sb?.stop());
  afterEach(async () => {
    await Promise.all(tuis.splice(0).map((t) => t.close()));
  });
  const sandbox = () => {
    if (!sb) throw new Error('the sandbox starts in beforeAll');
    return sb;
  };
  return {
    sandbox,
    open: (opts = {}) => {
      const t = new Tui({ manifest: sandbox().manifest, ...opts });
      tuis.push(t);
      return t;
    },
  };
}
