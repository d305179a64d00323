/**
 * One reader for the fixed-width registers (DK takst `lmsNN.txt`, AT EKO data carrier, Zur Rose
 * `transfer.dat`). Columns are written as their publishers document them: a 1-based start
 * position and a length (the takst's "1-11, length 11", the EKO's "Position 1, Länge 7", Zur
 * Rose's "001-002"), so a layout here can be checked against the publisher's table by eye.
 *
 * A layout names its columns, each with the shape its untrimmed value must have; a line is a
 * record of that layout when it is long enough and every shaped column fits. The same check
 * recognises a file by its content (`layoutMatch`), so an adapter never needs the file name.
 */

/** One column: 1-based start, length, and optionally the shape of its untrimmed value. */
export type Column = readonly [start: number, length: number, shape?: RegExp];

/** A record layout: its id (for messages), columns by name, and the length of a full record. */
export interface FixedLayout<K extends string = string> {
  id: string;
  columns: Readonly<Record<K, Column>>;
  /**
   * The documented record length. A line may end early when its last columns are blank
   * (trailing blanks trimmed by a copy); it must reach at least `minLength`.
   */
  recordLength?: number;
  /** The shortest line that is still a record: by default, up to the start of the last column. */
  minLength?: number;
}

/** Builds a layout; `minLength` defaults to reaching into the last column. */
export function fixedLayout<K extends string>(
  id: string, columns: Record<K, Column>, options: { recordLength?: number; minLength?: number } = {},
): FixedLayout<K> {
  const ends = Object.values<Column>(columns).map(([start]) => start);
  return { id, columns, ...options, minLength: options.minLength ?? Math.max(...ends) };
}

/** The untrimmed value of a column, padded with blanks where the line ends early. */
export function rawColumn(text: string, [start, length]: Column): string {
  return text.slice(start - 1, start - 1 + length).padEnd(length, ' ');
}

/** The trimmed value of a column. */
export function column(text: string, col: Column): string {
  return rawColumn(text, col).trim();
}

/** Why a line is not a record of the layout (the first column that does not fit), or null. */
export function lineProblem<K extends string>(text: string, layout: FixedLayout<K>): string | null {
  const min = layout.minLength ?? 0;
  if (text.length < min) return `line has ${text.length} characters, too short for a ${layout.id} record (${min})`;
  if (layout.recordLength !== undefined && text.length > layout.recordLength && text.slice(layout.recordLength).trim() !== '') {
    return `line has ${text.length} characters, longer than a ${layout.id} record (${layout.recordLength})`;
  }
  for (const [name, col] of Object.entries<Column>(layout.columns)) {
    const shape = col[2];
    const value = rawColumn(text, col);
    if (shape && !shape.test(value)) return `${name} "${value.trim()}" at column ${col[0]} is malformed`;
  }
  return null;
}

/** A record read by a layout: trimmed values by column name, and its 1-based line number. */
export interface FixedRecord<K extends string = string> {
  line: number;
  get(name: K): string;
  /** The value as written (untrimmed), for columns whose blanks mean something. */
  raw(name: K): string;
}

/** The record of a line that fits the layout. */
export function recordOf<K extends string>(text: string, line: number, layout: FixedLayout<K>): FixedRecord<K> {
  return {
    line,
    get: (name) => column(text, layout.columns[name]),
    raw: (name) => rawColumn(text, layout.columns[name]),
  };
}

/** The lines of a decoded file with their 1-based numbers, line ends (LF or CRLF) dropped, blank lines left out. */
export function fixedLines(text: string): Array<{ line: number; text: string }> {
  const out: Array<{ line: number; text: string }> = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() !== '') out.push({ line: i + 1, text: line });
  });
  return out;
}

/**
 * How well the first lines of a file fit a layout, for role detection: 2 when the lines that
 * fit are at least most of up to `sample` complete lines and all have the documented record
 * length, 1 when most fit, 0 otherwise (or no line at all). A malformed line or two does not
 * change what the file is; they are reported when it is read.
 */
export function layoutMatch<K extends string>(headText: string, layout: FixedLayout<K>, sample = 20): 0 | 1 | 2 {
  const lines = fixedLines(headText);
  // The head may end inside a line: only lines followed by a line end are complete.
  const complete = /\n$/.test(headText) ? lines : lines.slice(0, -1);
  const head = (complete.length > 0 ? complete : lines).slice(0, sample);
  const fitting = head.filter((l) => lineProblem(l.text, layout) === null);
  if (fitting.length === 0 || fitting.length * 3 < head.length * 2) return 0;
  const exact = layout.recordLength !== undefined && fitting.every((l) => l.text.length === layout.recordLength);
  return exact ? 2 : 1;
}
