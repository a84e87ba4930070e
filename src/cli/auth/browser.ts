/**
 * Opens a URL in the person's browser when there is one to open: macOS and Windows always, Linux and
 * the BSDs only with a display (or under WSL). Uses `open` (sindresorhus, bundled: openUrl.ts), loaded only when needed.
 * The URL holds no secret: only the PKCE challenge and a state.
 */
export async function openBrowser(url: string, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  const graphical =
    process.platform === 'darwin' || process.platform === 'win32' || Boolean(env.DISPLAY || env.WAYLAND_DISPLAY || env.WSL_DISTRO_NAME);
  if (!graphical || env.BROWSER === 'none') return false;
  try {
    const { default: open } = await import('./openUrl.js');
    const child = await open(url, { wait: false });
    child.on('error', () => undefined);
    child.unref();
    return true;
  } catch {
    return false;
  }
}
