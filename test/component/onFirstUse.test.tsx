import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { onFirstUse, usedScreens } from '../../src/tui/components/onFirstUse.js';
import { Text } from '../../src/tui/components/Text.js';
import { waitForFrame } from './render.js';

describe('onFirstUse', () => {
  it('shows its line while the screen loads, then the screen; once loaded, the screen at once, and its code loads once', async () => {
    let loads = 0;
    let finish: () => void = () => undefined;
    const Screen = onFirstUse<{ name: string }>('first-test', async () => {
      loads++;
      await new Promise<void>((res) => (finish = res));
      return ({ name }) => <Text>screen of {name}</Text>;
    }, 'loading the screen…');
    const first = render(<Screen name="runner" />);
    await waitForFrame(first, 'loading the screen…');
    // Loaded, it counts as used this session (the code cache is saved again for it), not before.
    expect(usedScreens()).not.toContain('first-test');
    finish();
    await waitForFrame(first, 'screen of runner');
    expect(usedScreens()).toContain('first-test');
    first.unmount();
    // Opened again: no stand-in frame at all, and nothing loaded again.
    const again = render(<Screen name="builder" />);
    expect(again.lastFrame()).toContain('screen of builder');
    again.unmount();
    expect(loads).toBe(1);
  });

  it('says why when the code could not load, and tries again when opened again', async () => {
    let loads = 0;
    const Screen = onFirstUse<object>('failing-test', async () => {
      if (++loads === 1) throw new Error('the chunk is missing');
      return () => <Text>loaded at last</Text>;
    }, 'loading…');
    const failed = render(<Screen />);
    await waitForFrame(failed, 'could not load this screen: the chunk is missing');
    expect(usedScreens()).not.toContain('failing-test');
    failed.unmount();
    const retried = render(<Screen />);
    await waitForFrame(retried, 'loaded at last');
    retried.unmount();
    expect(loads).toBe(2);
  });
});
