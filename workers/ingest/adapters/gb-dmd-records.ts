/**
 * AMPs, AMPPs and GTINs read again from their release files, one record at a time, by the
 * byte offset noted when the file was first read (gb-dmd-read.ts keeps only their keys): the
 * build needs an AMP's packs, which lie anywhere in the AMPP file, and a pack's GTINs, which
 * lie anywhere in the GTIN file. A record that no longer reads as it did (the file changed
 * since it was opened) rejects the file.
 */
import { FileRejectedError } from './common.ts';
import type { InputFile } from './common.ts';
import { ampRecord, amppRecord, gtinRecords, RowIssue } from './gb-dmd-read.ts';
import type { AmpKey, AmpRec, AmppKey, AmppRec, DmdRole, GtinRec, RecordKey } from './gb-dmd-read.ts';
import { toRecord } from './gb-dmd-xml.ts';
import type { DmdRecord } from './gb-dmd-xml.ts';
import { RecordRereader } from './xml-reread.ts';

export class DmdRecords {
  private readonly readers = new Map<DmdRole, RecordRereader>();

  constructor(private readonly files: ReadonlyMap<DmdRole, InputFile>) {}

  private read<T>(role: DmdRole, key: RecordKey, parse: (rec: DmdRecord) => T, id: (value: T) => string, expected: string): T {
    const file = this.files.get(role)!;
    let reader = this.readers.get(role);
    if (!reader) this.readers.set(role, (reader = new RecordRereader(file)));
    const changed = () => new FileRejectedError(file.name, `line ${key.line} reads differently than when the file was checked: the file changed while it was ingested`);
    let value: T;
    try {
      value = parse({ ...toRecord(reader.read(key.offset), ''), line: key.line });
    } catch (error) {
      throw error instanceof RowIssue ? changed() : error;
    }
    if (id(value) !== expected) throw changed();
    return value;
  }

  /** The AMP `apid` read at `key` (with the VMP and validity it was checked with). */
  amp(apid: string, key: AmpKey): AmpRec {
    return this.read('AMP', key, ampRecord, (a) => `${a.apid} ${a.vpid} ${a.invalid}`, `${apid} ${key.vpid} ${key.invalid}`);
  }

  /** The AMPP of `key` (with the AMP and VMPP it was linked to). */
  ampp(key: AmppKey): AmppRec {
    return this.read('AMPP', key, amppRecord, (a) => `${a.appid} ${a.apid} ${a.vppid}`, `${key.appid} ${key.apid} ${key.vppid}`);
  }

  /** The valid GTINs of AMPP `appid`, whose GTIN record starts at byte `offset` (none without one). */
  gtins(appid: string, offset: number | undefined): GtinRec[] {
    if (offset === undefined) return [];
    return this.read('GTIN', { line: 0, offset }, (rec) => gtinRecords(rec), (r) => r.appid, appid).gtins;
  }

  /** Closes the files opened for reading again. */
  close(): void {
    for (const reader of this.readers.values()) reader.close();
    this.readers.clear();
  }
}
