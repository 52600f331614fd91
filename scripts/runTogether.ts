/**
 * `node scripts/runTogether.ts <script>...`: runs the package's npm scripts at the same time and
 * fails when any fails. `npm test` runs lint and typecheck this way: each is one single-threaded
 * process, and on a 2-core CI machine the second core is otherwise idle for the minute they take.
 * Each script's output is printed whole once it ends, so the two never interleave.
 */
import { spawn } from 'node:child_process';

function run(script: string): Promise<{ script: string; code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('close', (code) =>
      resolve({ script, code: code ?? 1, output: Buffer.concat(chunks).toString() }),
    );
  });
}

const scripts = process.argv.slice(2);
const results = await Promise.all(scripts.map(run));
for (const { script, code, output } of results) {
  console.log(`> npm run ${script}: ${code === 0 ? 'passed' : `failed (exit ${code})`}`);
  if (output.trim()) console.log(output.trimEnd());
}
process.exitCode = results.some((result) => result.code !== 0) ? 1 : 0;
