/**
 * The two published layouts of the Refdata article file, each read into one flat article:
 *
 * - the older SOAP/XML export (`Refdata.Articles.xml`, `refdata_Pharma.xml`): root `ARTICLE`
 *   (optionally inside `soap:Envelope/soap:Body`), one `ITEM` per article with `ATYPE`
 *   (PHARMA | NONPHARMA), `GTIN`, `PHAR` (pharmacode), `SWMC_AUTHNR` (8-digit Swissmedic pack
 *   number), `NAME_DE`, `NAME_FR`, `ATC`, `AUTH_HOLDER_NAME`, `AUTH_HOLDER_GLN` and a `DT` attribute;
 * - the current SIMIS export (`https://simisinfo.refdata.ch/Articles/1.0/`): root `Articles`, one
 *   `Article` with an optional `MedicinalProduct` (Domain Human|Veterinary, LegalStatusOfSupply =
 *   Swissmedic category, RegulatedAuthorisationIdentifier = 5-digit number + 2-digit sequence,
 *   ProductClassification/ProductClass and Atc) and a `PackagedProduct` (RegulatedAuthorisationIdentifier
 *   = 8-digit pack number, DataCarrierIdentifier = GTIN, Holder, Name per Language, MarketingStatus).
 *   Non-pharma articles have no MedicinalProduct, or one whose ProductClass is NONPHARMA.
 */
import { childOf, childrenOf, textOf } from './xml-records.ts';
import type { XmlElement } from './xml-records.ts';

/** One Refdata article, whatever the layout. Empty strings mean "not given". */
export interface RefdataArticle {
  line: number;
  /** PHARMA or NONPHARMA as the file says; '' when the file gives neither. */
  type: string;
  gtin: string;
  pharmacode: string;
  /** 8-digit Swissmedic pack number. */
  no8: string;
  nameDe: string;
  nameFr: string;
  atc: string;
  holder: string;
  holderGln: string;
  /** Swissmedic dispensing category (LegalStatusOfSupply). */
  category: string;
  /** Domain of the MedicinalProduct (Human, Veterinary). */
  domain: string;
  /** MarketingStatus/DateStop (ISO date) of the current layout. */
  dateStop: string;
}

/** Reads an `ITEM` of the older layout. */
export function itemArticle(item: XmlElement, line: number): RefdataArticle {
  return {
    line,
    type: textOf(item, 'ATYPE').toUpperCase(),
    gtin: textOf(item, 'GTIN'),
    pharmacode: textOf(item, 'PHAR'),
    no8: textOf(item, 'SWMC_AUTHNR'),
    nameDe: textOf(item, 'NAME_DE'),
    nameFr: textOf(item, 'NAME_FR'),
    atc: textOf(item, 'ATC').toUpperCase(),
    holder: textOf(item, 'AUTH_HOLDER_NAME'),
    holderGln: textOf(item, 'AUTH_HOLDER_GLN'),
    category: '',
    domain: '',
    dateStop: '',
  };
}

function fullName(packaged: XmlElement | undefined, language: string): string {
  const name = childrenOf(packaged, 'Name').find((n) => textOf(n, 'Language').toUpperCase() === language);
  return textOf(name, 'FullName');
}

/** Reads an `Article` of the current layout. */
export function simisArticle(article: XmlElement, line: number): RefdataArticle {
  const medicinal = childOf(article, 'MedicinalProduct');
  const packaged = childOf(article, 'PackagedProduct');
  const holder = childOf(packaged, 'Holder');
  const productClass = textOf(childOf(medicinal, 'ProductClassification'), 'ProductClass').toUpperCase();
  return {
    line,
    // No MedicinalProduct at all is how the current layout marks a non-pharma article.
    type: medicinal ? productClass : 'NONPHARMA',
    gtin: textOf(packaged, 'DataCarrierIdentifier'),
    pharmacode: '',
    no8: textOf(packaged, 'RegulatedAuthorisationIdentifier'),
    nameDe: fullName(packaged, 'DE'),
    nameFr: fullName(packaged, 'FR'),
    atc: textOf(childOf(medicinal, 'ProductClassification'), 'Atc').toUpperCase(),
    holder: textOf(holder, 'Name'),
    holderGln: textOf(holder, 'Identifier'),
    category: textOf(medicinal, 'LegalStatusOfSupply'),
    domain: textOf(medicinal, 'Domain'),
    dateStop: textOf(childOf(packaged, 'MarketingStatus'), 'DateStop').slice(0, 10),
  };
}
