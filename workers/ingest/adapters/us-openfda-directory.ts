/**
 * The openFDA drug/ndc records read from the files they are built from. openFDA's NDC pipeline
 * (FDA/openfda `openfda/ndc/pipeline.py`) joins the NDC Directory's tab-separated
 * `product.txt` / `package.txt` and `unfinished_product.txt` / `unfinished_package.txt` into
 * the `results` of `drug-ndc-0001-of-0001.json`, then adds the `openfda` harmonisation block.
 * A user holding the directory files rather than the JSON download gives those: each file is
 * recognised by its content (the `PRODUCTID<TAB>` header, not its name) and read with the
 * directory reader (fda-ndc.ts) into this source, keyed as the JSON records are (product by
 * PRODUCTID, pack by 11-digit NDC). What only the JSON has (RxCUIs, UNIIs, SPL set ids) is
 * then absent, and substances are keyed by name.
 *
 * The JSON download holds finished and unfinished drugs together, so both pairs state the
 * source whole; one pair alone is a partial snapshot (it updates what it holds and deletes
 * nothing), so that reading the finished drugs never deletes the unfinished ones.
 */
import type { AdapterResult, ClassEntry, SubstanceEntry } from '../snapshot.ts';
import type { LoosePack, Many, StreamedAdapterResult } from '../input.ts';
import type { ProductEntry } from '../snapshot.ts';
import { FileRejectedError } from './common.ts';
import type { InputFile } from './common.ts';
import { classifyHeader, parseFdaNdc } from './fda-ndc.ts';
import type { FdaNdcOptions } from './fda-ndc.ts';
import { openFdaNdc } from './fda-ndc-stream.ts';
import { headBytes, headText } from './file-roles.ts';
import { OPENFDA_NDC_SOURCE } from './us-openfda-ndc.ts';

/** The first line of a file: the directory's files open with their column names, PRODUCTID first. */
async function firstLine(file: InputFile): Promise<string> {
  return headText(await headBytes(file, 4096)).split(/\r?\n/, 1)[0] ?? '';
}

/** Whether the files are the NDC Directory's text files (all of them) rather than the JSON download. */
export async function areDirectoryFiles(files: InputFile[]): Promise<boolean> {
  const lines = await Promise.all(files.map(firstLine));
  const directory = lines.map((line) => /^PRODUCTID\t/i.test(line));
  if (directory.every(Boolean)) return files.length > 0;
  const named = files.find((_, i) => directory[i]);
  if (named) throw new FileRejectedError(named.name, 'an NDC Directory text file cannot go with the openFDA JSON download: give one or the other');
  return false;
}

/** The files split into the finished and the unfinished pair, by their headers. */
async function pairsOf(files: InputFile[]): Promise<InputFile[][]> {
  const roles = await Promise.all(files.map(async (file) => classifyHeader(file, await firstLine(file))));
  const products = roles.filter((r) => r.table === 'product');
  const groups = products.map((p) => ({ kind: p.kind, files: [p.file] }));
  for (const role of roles.filter((r) => r.table === 'package')) {
    // A package file whose header leaves its kind open goes with the product file still alone.
    const group = groups.find((g) => g.kind === role.kind) ?? groups.find((g) => role.kind === null && g.files.length === 1);
    if (group) group.files.push(role.file);
    else groups.push({ kind: role.kind, files: [role.file] });
  }
  if (groups.length > 2 || new Set(groups.map((g) => g.kind)).size !== groups.length) {
    throw new FileRejectedError(files[0]!.name, 'expected the finished pair (product.txt, package.txt), the unfinished pair, or both, each once');
  }
  // A lone file is handed on as it is: the directory reader names what its pair lacks.
  return groups.map((g) => g.files);
}

function union<T>(lists: (T[] | undefined)[], key: (item: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const item of lists.flatMap((l) => l ?? [])) if (!seen.has(key(item))) seen.set(key(item), item);
  return [...seen.values()];
}

async function* chain<T>(parts: (Many<T> | undefined)[]): AsyncGenerator<T> {
  for (const part of parts) if (part) yield* part;
}

/** Reports in the order the files were given. */
function inOrder<R extends { files?: AdapterResult['files'] }>(files: InputFile[], results: R[]): AdapterResult['files'] {
  const reports = results.flatMap((r) => r.files ?? []);
  return files.map((f) => reports.find((r) => r.file === f.name)!);
}

const classKey = (c: ClassEntry): string => `${c.system}|${c.code}`;
const substanceKey = (s: SubstanceEntry): string => s.unii;

/** The directory files read in memory (the pairs one after the other) into the openFDA source. */
export async function parseOpenFdaDirectory(files: InputFile[], options: FdaNdcOptions = {}): Promise<AdapterResult> {
  const results = (await pairsOf(files)).map((pair) => parseFdaNdc(pair, options));
  return {
    snapshot: {
      format: results[0]!.snapshot.format, source: OPENFDA_NDC_SOURCE,
      classes: union(results.map((r) => r.snapshot.classes), classKey),
      substances: union(results.map((r) => r.snapshot.substances), substanceKey),
      products: results.flatMap((r) => r.snapshot.products ?? []),
      ...(results.length === 1 ? { partial: true } : {}),
    },
    problems: results.flatMap((r) => r.problems),
    files: inOrder(files, results),
  };
}

/** The directory files opened for a streamed ingest (each pair as `drugref ingest fda-ndc` reads it). */
export async function openOpenFdaDirectory(files: InputFile[], options: FdaNdcOptions = {}): Promise<StreamedAdapterResult> {
  const results: StreamedAdapterResult[] = [];
  for (const pair of await pairsOf(files)) results.push(await openFdaNdc(pair, options));
  return {
    snapshot: {
      format: results[0]!.snapshot.format, source: OPENFDA_NDC_SOURCE,
      classes: union(results.map((r) => r.snapshot.classes), classKey),
      substances: union(results.map((r) => r.snapshot.substances), substanceKey),
      products: chain<ProductEntry>(results.map((r) => r.snapshot.products)),
      packs: chain<LoosePack>(results.map((r) => r.snapshot.packs)),
      ...(results.length === 1 ? { partial: true } : {}),
    },
    problems: results.flatMap((r) => r.problems),
    files: inOrder(files, results),
  };
}
