import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../../server/cli.ts', import.meta.url));

/**
 * `node server/cli.ts --port 0 --quiet` with `args`, once it says it listens: its process, URL
 * and port. A server that exits first rejects with what it wrote to stderr.
 */
export async function startCliServer(
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ child: ChildProcess; url: string; port: number }> {
  const child = spawn(process.execPath, [CLI, '--port', '0', '--quiet', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const listening = /^PlantDesk API listening on (http:\/\/\S+)$/.exec(line);
      if (listening) resolve(listening[1]!);
    });
    child.once('exit', (code) => reject(new Error(`server exited (${code}):\n${stderr}`)));
  });
  return { child, url, port: Number(new URL(url).port) };
}
