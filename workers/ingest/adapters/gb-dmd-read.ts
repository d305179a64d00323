/**
 * dm+d release files → small in-memory records, one file at a time. The role of a file comes
 * from its root element (the names carry release numbers, `f_ampp2_3010419.xml`, and are
 * often renamed), and each record is validated for its own ids and numbers here; links
 * between files (AMP → VMP, AMPP → AMP/VMPP) are checked when the snapshot is built.
 * Layout: "dm+d Technical specification of data files for release 2", Appendix A.
 */
import { isValidSctConceptId } from '../../../vocabulary/check-digits.ts';
import { normaliseGtin } from '../../../vocabulary/codes.ts';
import { FileRejectedError } from './common.ts';
import type { InputFile, ProblemLog } from './common.ts';
import { readDmdRecords, streamDmdRecords } from './gb-dmd-xml.ts';
import type { DmdRecord } from './gb-dmd-xml.ts';

export type DmdRole = 'lookup' | 'ingredient' | 'VTM' | 'VMP' | 'VMPP' | 'AMP' | 'AMPP' | 'GTIN' | 'BNF';

/** Root element of each release file → its role and the depth of its records (root = 1). */
export const DMD_ROOTS: Readonly<Record<string, { role: DmdRole; depth: number }>> = {
  LOOKUP: { role: 'lookup', depth: 3 },
  INGREDIENT_SUBSTANCES: { role: 'ingredient', depth: 2 },
  VIRTUAL_THERAPEUTIC_MOIETIES: { role: 'VTM', depth: 2 },
  VIRTUAL_MED_PRODUCTS: { role: 'VMP', depth: 3 },
  VIRTUAL_MED_PRODUCT_PACK: { role: 'VMPP', depth: 3 },
  ACTUAL_MEDICINAL_PRODUCTS: { role: 'AMP', depth: 3 },
  ACTUAL_MEDICINAL_PROD_PACKS: { role: 'AMPP', depth: 3 },
  GTIN_DETAILS: { role: 'GTIN', depth: 3 },
  // The supplementary BNF/ATC file (f_bnf1_*.xml, Appendix B).
  BNF_DETAILS: { role: 'BNF', depth: 3 },
};

export interface VpiRec { isid: string; bsSubid?: string; num?: number; numUom?: string; den?: number; denUom?: string; line: number }
export interface VmpRec {
  name: string; line: number; invalid: boolean; vtmid?: string; vpidDate?: string; vpidPrev?: string;
  /** The name before NMDT (NMPREV). */
  prevName?: string; nameDate?: string;
  vpis: VpiRec[]; forms: string[]; routes: string[]; ont: string[]; cd: string | undefined; sections: number;
}
/** A price in pence from `from`, with the price it replaced (dm+d keeps one earlier price). */
export interface PenceRec { pence: number; from?: string; prev?: number }
/** A VMPP; its Drug Tariff row (DTINFO) sets `tariff` and `payCat` later, so they are there from the start: one shape for all. */
export interface VmppRec { vpid: string; qty?: number; qtyUom?: string; line: number; tariff: PenceRec | undefined; payCat: string | undefined }
export interface AmpRec {
  apid: string; vpid: string; name: string; desc: string; line: number; invalid: boolean;
  prevName?: string; nameDate?: string; supplier?: string; licAuth?: string; avail?: string; ema: boolean; parallel: boolean;
}
export interface AmppRec { appid: string; vppid: string; apid: string; name: string; line: number; invalid: boolean; legal?: string; disc?: string }
export interface GtinRec { code: string; from?: string; to?: string }

/** Where an AMP or AMPP was read (line) and lies in its file (byte offset): the record itself is read again when built. */
export interface RecordKey { line: number; offset: number }
/**
 * An AMP's link to its VMP (all its checks and counts need), whether it is out of scope, and
 * once linked (gb-dmd-build.ts `linkPacks`) where its packs lie in `DmdData.packs`.
 */
export interface AmpKey extends RecordKey { vpid: string; invalid: boolean; firstPack: number; packCount: number }
/**
 * A valid AMPP with the ids its links are checked by; once linked, its list price (pence,
 * from, previous: no object of its own, as there are hundreds of thousands) and the byte
 * offset of its GTIN record (when it has a valid GTIN). Every field is set when it is made,
 * so all keys share one compact shape.
 */
export interface AmppKey extends RecordKey {
  appid: string; apid: string; vppid: string;
  pence: number | undefined; priceFrom: string | undefined; pricePrev: number | undefined; gtins: number | undefined;
}

/** Rows read and kept per input file (skipped = read − kept). */
export interface RoleCount { file: string; role: DmdRole; read: number; kept: number }

/**
 * Everything the snapshot is built from, keyed by dm+d id. AMPs, AMPPs and GTINs, a full
 * release's largest files, are kept as keys and byte offsets only, and read again from their
 * files one at a time while the products are built (gb-dmd-records.ts).
 */
export interface DmdData {
  lookup: Map<string, Map<string, string>>;
  ingredients: Map<string, string>;
  vtms: Map<string, { name: string; prev?: string; invalid: boolean }>;
  vmps: Map<string, VmpRec>;
  vmpps: Map<string, VmppRec>;
  /** Every AMP by APID (the first of a repeated APID), in file order. */
  amps: Map<string, AmpKey>;
  /** The valid AMPPs in file order (emptied once linked into `packs`). */
  ampps: AmppKey[];
  /**
   * One string per distinct id and date read so far (emptied once linked): a release names
   * each VMP, VMPP and AMP from several files, and shared strings keep the keys small.
   */
  shared: Map<string, string>;
  /** List price of each AMPP (emptied once linked). */
  prices: Map<string, PenceRec>;
  /** Byte offset of the GTIN record of each AMPP that has a valid GTIN (emptied once linked). */
  gtins: Map<string, number>;
  /** The AMPPs built as packs: one run per AMP (its `firstPack`, `packCount`), the runs in AMP file order, each in AMPP file order. */
  packs: AmppKey[];
  /** ATC code of a VMP, from the supplementary BNF/ATC file. */
  atc: Map<string, string>;
  counts: Map<DmdRole, RoleCount>;
  /** The file of each role, to read records again. */
  files: Map<DmdRole, InputFile>;
}

interface Ctx { data: DmdData; log: ProblemLog; file: string; count: RoleCount }

/** The one string of `value` in `data` (see `DmdData.shared`). */
function shared(data: DmdData, value: string): string;
function shared(data: DmdData, value: string | undefined): string | undefined;
function shared(data: DmdData, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const seen = data.shared.get(value);
  if (seen !== undefined) return seen;
  data.shared.set(value, value);
  return value;
}

/** `2017-06-01` when a real date, else undefined. */
export function isoDay(raw: string | undefined): string | undefined {
  if (!raw || !/^\d{4}-\d{2}-\d{2}$/.test(raw)) return undefined;
  const date = new Date(`${raw}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(raw) ? raw : undefined;
}

/** A dm+d (SNOMED CT) id field, or an error message naming the field. */
function sctId(rec: DmdRecord, field: string): string {
  const raw = rec.fields[field] ?? '';
  if (!isValidSctConceptId(raw)) throw new RowIssue(raw === '' ? `${rec.tag} has no ${field}` : `${field} "${raw}" is not a valid dm+d (SNOMED CT) id`);
  return raw;
}

/** An optional id field: absent → undefined, malformed → RowIssue. */
function optionalId(rec: DmdRecord, field: string): string | undefined {
  return (rec.fields[field] ?? '') === '' ? undefined : sctId(rec, field);
}

/** Decimal quantity (`23.2`, `0.5`); absent → undefined; malformed → RowIssue. */
function decimal(rec: DmdRecord, field: string): number | undefined {
  const raw = rec.fields[field] ?? '';
  if (raw === '') return undefined;
  if (!/^\d+(\.\d+)?$/.test(raw)) throw new RowIssue(`${field} "${raw}" is not a number`);
  return Number(raw);
}

/** Price in whole pence (dm+d stores prices as integers); absent → undefined. */
function pence(rec: DmdRecord, field: string): number | undefined {
  const raw = rec.fields[field] ?? '';
  if (raw === '') return undefined;
  if (!/^\d+$/.test(raw)) throw new RowIssue(`${field} "${raw}" is not a price in whole pence`);
  return Number(raw);
}

/** A malformed record: reported with its line and skipped. */
export class RowIssue extends Error {}

const flag = (rec: DmdRecord, field: string): boolean => (rec.fields[field] ?? '') !== '' && rec.fields[field] !== '0';
const opt = (rec: DmdRecord, field: string): string | undefined => rec.fields[field] || undefined;

/** A VMP's ingredient, form, route, ontology or controlled-drug row; they follow the VMPS section. */
function vmpSection(rec: DmdRecord, data: DmdData): void {
  if (!['VPI', 'DFORM', 'DROUTE', 'ONT', 'CONTROL_INFO'].includes(rec.tag)) return;
  const vmp = data.vmps.get(sctId(rec, 'VPID'));
  if (!vmp) throw new RowIssue(`${rec.tag} names VPID ${rec.fields.VPID}, which is not a VMP of this file`);
  // Lists grow by concat, which sizes them exactly: push (and spread) reserve room for 17 items, on tens of thousands of VMPs.
  if (rec.tag === 'VPI') {
    vmp.vpis = vmp.vpis.concat([{
      isid: shared(data, sctId(rec, 'ISID')), line: rec.line, bsSubid: shared(data, optionalId(rec, 'BS_SUBID')),
      num: decimal(rec, 'STRNT_NMRTR_VAL'), numUom: shared(data, opt(rec, 'STRNT_NMRTR_UOMCD')), den: decimal(rec, 'STRNT_DNMTR_VAL'),
      denUom: shared(data, opt(rec, 'STRNT_DNMTR_UOMCD')),
    }]);
  } else if (rec.tag === 'DFORM') vmp.forms = vmp.forms.concat([shared(data, rec.fields.FORMCD ?? '')]);
  else if (rec.tag === 'DROUTE') vmp.routes = vmp.routes.concat([shared(data, rec.fields.ROUTECD ?? '')]);
  else if (rec.tag === 'ONT') vmp.ont = vmp.ont.concat([shared(data, rec.fields.FORMCD ?? '')]);
  else vmp.cd = shared(data, rec.fields.CATCD);
  // Counted once parsed, so a malformed row is not counted as kept with its VMP.
  vmp.sections += 1;
}

function readVmp(rec: DmdRecord, data: DmdData): void {
  if (rec.tag !== 'VMP') { vmpSection(rec, data); return; }
  const vpid = sctId(rec, 'VPID');
  if (!rec.fields.NM) throw new RowIssue(`VMP ${vpid} has no NM`);
  data.vmps.set(shared(data, vpid), {
    name: rec.fields.NM, line: rec.line, invalid: flag(rec, 'INVALID'), vtmid: shared(data, optionalId(rec, 'VTMID')),
    vpidDate: shared(data, isoDay(rec.fields.VPIDDT)), vpidPrev: optionalId(rec, 'VPIDPREV'), vpis: [], forms: [], routes: [], ont: [], cd: undefined, sections: 0,
    prevName: opt(rec, 'NMPREV'), nameDate: shared(data, isoDay(rec.fields.NMDT)),
  });
}

function readVmpp(rec: DmdRecord, data: DmdData): void {
  if (rec.tag === 'VMPP') {
    const vppid = sctId(rec, 'VPPID');
    data.vmpps.set(shared(data, vppid), {
      vpid: shared(data, sctId(rec, 'VPID')), qty: decimal(rec, 'QTYVAL'), qtyUom: shared(data, opt(rec, 'QTY_UOMCD')), line: rec.line,
      tariff: undefined, payCat: undefined,
    });
  } else if (rec.tag === 'DTINFO') {
    const vmpp = data.vmpps.get(sctId(rec, 'VPPID'));
    if (!vmpp) throw new RowIssue(`DTINFO names VPPID ${rec.fields.VPPID}, which is not a VMPP of this file`);
    // The payment category stands even when the price beside it is malformed.
    vmpp.payCat = shared(data, opt(rec, 'PAY_CATCD'));
    const price = pence(rec, 'PRICE');
    if (price !== undefined) vmpp.tariff = { pence: price, from: shared(data, isoDay(rec.fields.DT)), prev: pence(rec, 'PREVPRICE') };
  }
}

/** The AMP of an AMP record; throws RowIssue when malformed. */
export function ampRecord(rec: DmdRecord): AmpRec {
  const apid = sctId(rec, 'APID');
  if (!rec.fields.NM) throw new RowIssue(`AMP ${apid} has no NM`);
  return {
    apid, vpid: sctId(rec, 'VPID'), name: rec.fields.NM, desc: rec.fields.DESC ?? '', line: rec.line, invalid: flag(rec, 'INVALID'),
    // The specification spells it NM_PREV; NMPREV (the VMP spelling) is accepted too.
    prevName: opt(rec, 'NM_PREV') ?? opt(rec, 'NMPREV'), nameDate: isoDay(rec.fields.NMDT), supplier: opt(rec, 'SUPPCD'),
    licAuth: opt(rec, 'LIC_AUTHCD'), avail: opt(rec, 'AVAIL_RESTRICTCD'), ema: flag(rec, 'EMA'), parallel: flag(rec, 'PARALLEL_IMPORT'),
  };
}

function readAmp(rec: DmdRecord, data: DmdData): void {
  if (rec.tag !== 'AMP') return;
  const amp = ampRecord(rec);
  const first = data.amps.get(amp.apid);
  if (first) throw new RowIssue(`APID ${amp.apid} repeats the AMP of line ${first.line}; the first is kept`);
  data.amps.set(shared(data, amp.apid), { line: rec.line, offset: rec.offset, vpid: shared(data, amp.vpid), invalid: amp.invalid, firstPack: 0, packCount: 0 });
}

/** The AMPP of an AMPP record; throws RowIssue when malformed. */
export function amppRecord(rec: DmdRecord): AmppRec {
  const appid = sctId(rec, 'APPID');
  if (!rec.fields.NM) throw new RowIssue(`AMPP ${appid} has no NM`);
  return {
    appid, vppid: sctId(rec, 'VPPID'), apid: sctId(rec, 'APID'), name: rec.fields.NM, line: rec.line,
    invalid: flag(rec, 'INVALID'), legal: opt(rec, 'LEGAL_CATCD'), disc: opt(rec, 'DISCCD'),
  };
}

function readAmpp(rec: DmdRecord, data: DmdData): void {
  if (rec.tag === 'AMPP') {
    const ampp = amppRecord(rec);
    // Invalid AMPPs are out of scope (as invalid AMPs): never built, never checked for repeats.
    if (!ampp.invalid) {
      data.ampps.push({
        appid: shared(data, ampp.appid), apid: shared(data, ampp.apid), vppid: shared(data, ampp.vppid), line: rec.line, offset: rec.offset,
        pence: undefined, priceFrom: undefined, pricePrev: undefined, gtins: undefined,
      });
    }
  } else if (rec.tag === 'PRICE_INFO') {
    const appid = sctId(rec, 'APPID');
    const price = pence(rec, 'PRICE');
    // The specification spells the earlier price PRICE_PREV; PRICEPREV is accepted too.
    const prev = pence(rec, rec.fields.PRICE_PREV !== undefined ? 'PRICE_PREV' : 'PRICEPREV');
    if (price !== undefined) data.prices.set(shared(data, appid), { pence: price, from: shared(data, isoDay(rec.fields.PRICEDT)), prev });
  }
}

/** The AMPPID of a GTIN record and its valid GTINs; `onInvalid` hears of each malformed one. */
export function gtinRecords(rec: DmdRecord, onInvalid: (message: string) => void = () => undefined): { appid: string; gtins: GtinRec[] } {
  const appid = sctId(rec, 'AMPPID');
  const gtins: GtinRec[] = [];
  for (const group of rec.groups.filter((g) => g.tag === 'GTINDATA')) {
    const raw = group.fields.GTIN ?? '';
    // GTINs are 13 or 14 digits; a 14-digit one with indicator 0 is the same pack as its 13 digits.
    const code = /^\d{13,14}$/.test(raw) ? normaliseGtin(raw) : null;
    if (!code) onInvalid(`GTIN "${raw}" of AMPP ${appid} is not a valid 13 or 14-digit GTIN`);
    else gtins.push({ code, from: isoDay(group.fields.STARTDT), to: isoDay(group.fields.ENDDT) });
  }
  return { appid, gtins };
}

function readGtin(rec: DmdRecord, ctx: Ctx): void {
  const { appid, gtins } = gtinRecords(rec, (message) => ctx.log.add(ctx.file, rec.line, message));
  // The last record of an AMPP wins; one without a valid GTIN leaves none to read again.
  if (gtins.length > 0) ctx.data.gtins.set(shared(ctx.data, appid), rec.offset);
  else ctx.data.gtins.delete(appid);
}

function readLookup(rec: DmdRecord, ctx: Ctx): void {
  const code = rec.fields.CD ?? '';
  if (code === '') throw new RowIssue(`${rec.section} entry has no CD`);
  let table = ctx.data.lookup.get(rec.section);
  if (!table) ctx.data.lookup.set(rec.section, (table = new Map()));
  table.set(code, rec.fields.DESC ?? '');
  ctx.count.kept += 1;
}

function readRecord(role: DmdRole, rec: DmdRecord, ctx: Ctx): void {
  const { data: d } = ctx;
  switch (role) {
    case 'lookup': readLookup(rec, ctx); break;
    case 'ingredient': if (rec.tag === 'ING' && rec.fields.NM) d.ingredients.set(shared(d, sctId(rec, 'ISID')), rec.fields.NM); break;
    case 'VTM': if (rec.tag === 'VTM') d.vtms.set(shared(d, sctId(rec, 'VTMID')), { name: rec.fields.NM ?? '', prev: optionalId(rec, 'VTMIDPREV'), invalid: flag(rec, 'INVALID') }); break;
    case 'VMP': readVmp(rec, d); break;
    case 'VMPP': readVmpp(rec, d); break;
    case 'AMP': readAmp(rec, d); break;
    case 'AMPP': readAmpp(rec, d); break;
    case 'GTIN': readGtin(rec, ctx); break;
    // Kept apart from the VMPs: the BNF file may come before the VMP file.
    case 'BNF': if (rec.tag === 'VMP' && rec.fields.ATC) d.atc.set(shared(d, sctId(rec, 'VPID')), shared(d, rec.fields.ATC.toUpperCase())); break;
  }
}

/** What one file's reader needs: the role check for its root, and the handler of each record. */
export interface DmdFileReader {
  /** Called with the root element's name; returns the depth of its records or throws FileRejectedError. */
  onRoot(root: string): number;
  onRecord(rec: DmdRecord): void;
  /** The file's counts, once its root was seen. */
  count(): RoleCount | undefined;
}

/** The reader of one release file into `data`; refuses a root that is not a dm+d root or whose role was already given. */
export function dmdFileReader(input: InputFile, d: DmdData, log: ProblemLog): DmdFileReader {
  const { name } = input;
  let count: RoleCount | undefined;
  return {
    onRoot(root) {
      const known = DMD_ROOTS[root];
      if (!known) throw new FileRejectedError(name, `root element <${root}> is not one of the dm+d release files (${Object.keys(DMD_ROOTS).join(', ')})`);
      const other = d.counts.get(known.role);
      if (other) throw new FileRejectedError(name, `a second ${known.role} file (the first is ${other.file})`);
      count = { file: name, role: known.role, read: 0, kept: 0 };
      d.counts.set(known.role, count);
      d.files.set(known.role, input);
      return known.depth;
    },
    onRecord(rec) {
      const ctx: Ctx = { data: d, log, file: name, count: count! };
      ctx.count.read += 1;
      try {
        readRecord(ctx.count.role, rec, ctx);
      } catch (error) {
        if (!(error instanceof RowIssue)) throw error;
        log.add(name, rec.line, error.message);
      }
    },
    count: () => count,
  };
}

/** Reads one release file (held in memory) into `data`. */
export function readDmdFile(input: InputFile, d: DmdData, log: ProblemLog): RoleCount {
  const reader = dmdFileReader(input, d, log);
  readDmdRecords(input.name, input.content, reader.onRoot, reader.onRecord);
  return reader.count()!;
}

/** Reads one release file into `data` from disk in blocks (from memory when it has no path). */
export async function streamDmdFile(input: InputFile, d: DmdData, log: ProblemLog): Promise<RoleCount> {
  const reader = dmdFileReader(input, d, log);
  for await (const rec of streamDmdRecords(input, reader.onRoot)) reader.onRecord(rec);
  const count = reader.count();
  if (!count) throw new FileRejectedError(input.name, 'no XML root element');
  return count;
}

/** An empty collection to read files into. */
export function emptyDmdData(): DmdData {
  return {
    lookup: new Map(), ingredients: new Map(), vtms: new Map(), vmps: new Map(), vmpps: new Map(), amps: new Map(),
    ampps: [], shared: new Map(), prices: new Map(), gtins: new Map(), packs: [], atc: new Map(), counts: new Map(), files: new Map(),
  };
}
