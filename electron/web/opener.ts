import { spawn } from 'node:child_process';

/**
 * The system's "open this address" command, without a shell: `cmd /c start` would hand the
 * address to cmd.exe, where `|`, `^` and `"` still mean something after `&` is escaped.
 * rundll32's FileProtocolHandler opens it with the default browser, as `start` would.
 */
export function openerCommand(platform: NodeJS.Platform, url: string): [string, string[]] {
  if (platform === 'darwin') return ['open', [url]];
  if (platform === 'win32') return ['rundll32.exe', ['url.dll,FileProtocolHandler', url]];
  return ['xdg-open', [url]];
}

/** Opens the address in the system browser; the address is ours or allow-listed https. */
export function openInBrowser(
  url: string,
  platform: NodeJS.Platform = process.platform,
): Promise<void> {
  const [command, args] = openerCommand(platform, url);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      detached: true,
      stdio: 'ignore',
      windowsHide: true,
      shell: false,
    });
    child.once('error', reject);
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}
