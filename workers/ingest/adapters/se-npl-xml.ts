/**
 * One product file of Läkemedelsverket's NPL export (Nationellt produktregister för läkemedel,
 * the nightly `*_Total_NPL.zip`: one XML file per product, root `npl:medprod` in namespace
 * `urn:schemas-npl:instance:<version>` with elements of `urn:schemas-npl:mpa:<version>`).
 * Read here: the NPL-id, the product name, the strength as written, the ATC code, the narcotic
 * class, the product class (approved, licence ...), the sales-stopped flag and each package's
 * NPL pack id, pack text and OTC flag. Values of `-lx` elements are codes of NPL's lexicons
 * (pharmaceutical form `FICOTA`, organisation and substance ids); they are kept as codes.
 */
import { normaliseIdentifier } from '../../../vocabulary/codes.ts';
import { FileRejectedError, RowError } from './common.ts';
import type { InputFile } from './common.ts';
import { attrOf, childOf, childrenOf, streamXmlRecords, textOf } from './xml-records.ts';
import type { XmlElement } from './xml-records.ts';

/** A package of an NPL product. */
export interface NplPackage {
  packId: string;
  text: string;
  /** `Y` when the package may be sold without prescription. */
  otc: boolean;
  line: number;
}

/** What one NPL product file says. */
export interface NplProduct {
  nplId: string;
  name: string;
  strength: string;
  /** Code of NPL's pharmaceutical-form lexicon (`FICOTA` film-coated tablet ...). */
  formCode: string;
  atc: string;
  /** Code of NPL's product-class lexicon (`LIC` licence product ...). */
  productClass: string;
  /** NPL narcotic class (`0` none; `1`-`5` the Swedish lists II-V). */
  narcoticClass: string;
  salesStopped: boolean;
  packages: NplPackage[];
}

const NAMESPACE = /^urn:schemas-npl:instance:\d+/;

/** A product file whose product cannot be used: reported with the line of the offending element, then skipped. */
export class NplProductError extends RowError {
  readonly line: number;

  constructor(message: string, line: number) {
    super(message);
    this.line = line;
  }
}

/** True when the file starts like an NPL product document (checked before parsing, to pick the role). */
export function looksLikeNplProduct(content: Buffer): boolean {
  return /<(?:\w+:)?medprod[\s>]/.test(content.subarray(0, 600).toString('utf8'));
}

function nested(element: XmlElement | undefined, path: string[]): XmlElement | undefined {
  return path.reduce<XmlElement | undefined>((at, name) => childOf(at, name), element);
}

function packagesOf(root: XmlElement): NplPackage[] {
  return childrenOf(childOf(root, 'packages'), 'package').map((pkg) => {
    const raw = textOf(pkg, 'nplpackid');
    const packId = normaliseIdentifier('se_npl_pack_id', raw);
    if (!packId) throw new NplProductError(`nplpackid "${raw}" is not a 14-digit NPL id`, childOf(pkg, 'nplpackid')?.line ?? pkg.line);
    return {
      packId,
      text: textOf(childOf(pkg, 'pack-text'), 'v'),
      otc: attrOf(nested(pkg, ['prescription', 'otc']), 'v') === 'Y',
      line: pkg.line,
    };
  });
}

/** Parses one product file; a file that is not an NPL product document is rejected, an unusable product throws NplProductError. */
export function parseNplProduct(file: InputFile): NplProduct {
  let product: NplProduct | null = null;
  streamXmlRecords(file.name, file.content, {
    onOpen(name, ancestors, attributes) {
      if (ancestors.length > 0) return;
      if (name !== 'medprod') throw new FileRejectedError(file.name, 'root element is not <npl:medprod>');
      if (!Object.values(attributes).some((v) => NAMESPACE.test(v))) throw new FileRejectedError(file.name, 'not an NPL product document (no urn:schemas-npl:instance namespace)');
    },
    isRecord: (_name, ancestors) => ancestors.length === 0,
    onRecord(root) {
      const raw = textOf(root, 'nplid');
      const nplId = normaliseIdentifier('se_npl_id', raw);
      if (!nplId) throw new NplProductError(`nplid "${raw}" is not a 14-digit NPL id`, childOf(root, 'nplid')?.line ?? root.line);
      const classifications = childOf(root, 'classifications');
      product = {
        nplId,
        name: attrOf(childOf(childOf(root, 'names'), 'medprodname'), 'v'),
        strength: textOf(childOf(root, 'strength-text'), 'v'),
        formCode: attrOf(childOf(root, 'pharmaceutical-form-lx'), 'v'),
        atc: attrOf(childOf(classifications, 'atc-code-lx'), 'v').toUpperCase(),
        productClass: attrOf(childOf(root, 'productclass-lx'), 'v'),
        narcoticClass: attrOf(childOf(classifications, 'narcotic-class-lx'), 'v'),
        salesStopped: attrOf(nested(root, ['flags', 'salesstopped']), 'v') === 'Y',
        packages: packagesOf(root),
      };
    },
  });
  if (!product) throw new FileRejectedError(file.name, 'no NPL product in the file');
  return product;
}
