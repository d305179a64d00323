/**
 * Navigation over fast-xml-parser output for the SL adapter. The parser keeps values as
 * strings (codes keep leading zeros), turns empty elements into '' and elements with
 * attributes into objects; these helpers hide those cases.
 */

/** A parsed element: child elements by name, attributes as `@_name`, text as `#text`. */
export type Node = { [name: string]: unknown };

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The single child element `name`, or undefined (also for empty elements). */
export function child(node: Node | undefined, name: string): Node | undefined {
  const value = node?.[name];
  return isNode(value) ? value : undefined;
}

/** Repeated child elements `name` (always parsed as arrays), empty when absent. */
export function children(node: Node | undefined, name: string): Node[] {
  const value = node?.[name];
  return Array.isArray(value) ? value.filter(isNode) : [];
}

/** Trimmed text of child element or attribute `name`; '' when absent or empty. */
export function text(node: Node | undefined, name: string): string {
  const value = node?.[name];
  if (typeof value === 'string' || typeof value === 'number') return String(value).trim();
  if (isNode(value) && typeof value['#text'] === 'string') return value['#text'].trim();
  return '';
}

/**
 * 1-based line of every `<name>` start tag in document order (`<Pack>` but not `<Packs>`),
 * so the n-th parsed element can be reported with its line.
 */
export function elementLines(xml: string, name: string): number[] {
  const lines: number[] = [];
  const pattern = new RegExp(`<${name}[\\s>/]`, 'g');
  let line = 1;
  let scanned = 0;
  for (const match of xml.matchAll(pattern)) {
    for (let i = scanned; i < match.index; i += 1) if (xml.charCodeAt(i) === 10) line += 1;
    scanned = match.index;
    lines.push(line);
  }
  return lines;
}

/**
 * Limitation texts are HTML fragments (`<br>` escaped in the XML, usually followed by a real
 * line break): one line break per `<br>`, other tags dropped, trailing spaces trimmed.
 */
function plain(html: string): string {
  return html
    .replace(/[ \t]*<br\s*\/?>[ \t]*(\r?\n)?/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** German text of every Limitation under the given Limitations elements, blank-line separated. */
export function limitationText(containers: Array<Node | undefined>): string {
  return containers
    .flatMap((c) => children(c, 'Limitation'))
    .map((l) => plain(text(l, 'DescriptionDe')))
    .filter(Boolean)
    .join('\n\n');
}
