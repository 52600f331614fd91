/**
 * A Local sandbox process that never listens (startPlantDesk's `spawnServer`), for tests that
 * run servers of their own: it only answers being stopped.
 */
export function idleSandbox() {
  const exits: ((code: number | null) => void)[] = [];
  const end = () => exits.splice(0).forEach((exit) => exit(0));
  return {
    onOutput() {},
    onExit: (listener: (code: number | null) => void) => void exits.push(listener),
    kill: end,
    forceKill: end,
  };
}
