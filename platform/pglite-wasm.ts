/**
 * PGlite's WebAssembly module, compiled ahead. `compilePgliteAhead()` starts reading and
 * compiling pglite.wasm (V8 compiles on background threads), so a start can restore files
 * and load its modules meanwhile; `openDatabase` then hands the module to PGlite instead
 * of letting it compile the same file once the data directory is ready.
 */
import { readFile } from 'node:fs/promises';

// The project's libs (ES2023 + node) type WebAssembly's module but not its global functions.
const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<WebAssembly.Module> } }).WebAssembly;

let compiled: Promise<WebAssembly.Module | undefined> | null = null;

export function compilePgliteAhead(): void {
  // A failure here is left to PGlite's own loading, which reports it.
  compiled ??= readFile(new URL('pglite.wasm', import.meta.resolve('@electric-sql/pglite')))
    .then((bytes) => wasm.compile(bytes))
    .catch(() => undefined);
}

/** The module compiled ahead, when a compilation was started and succeeded. */
export async function pgliteWasmAhead(): Promise<WebAssembly.Module | undefined> {
  return (await compiled) ?? undefined;
}
