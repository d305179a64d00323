/**
 * Generated SPL documents (HL7 v3 `<document xmlns="urn:hl7-org:v3">`, one label per file as
 * DailyMed distributes them) for the large-ingest measurements and the streamed adapter's
 * tests. Each document has a labeler (accented names), narrative sections of about 20 kB (a
 * real label carries its prescribing information as text) and two products in the product
 * data elements section, each with an active ingredient with UNII and moiety, an inactive
 * one, two package NDCs (one nested in a carton), the route, the approval and the marketing
 * act. A few products are malformed (a product code that is no NDC, an ingredient code that
 * is no UNII) and a few repeat a product or package NDC of an earlier document.
 * DailyMed's human prescription labels alone are tens of thousands of documents.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { uniiCheckCharacter } from '../vocabulary/check-digits.ts';

const NARRATIVE = `<paragraph>Die Behandlung sollte mit der niedrigsten wirksamen Dosis beginnen; à prendre au cours d’un repas. ${'Posologie et mode d’administration: la dose doit être adaptée à chaque patient. '.repeat(12)}</paragraph>`;

const unii = (i: number): string => {
  const body = `UNII${String(i).padStart(5, '0')}`;
  return `${body}${uniiCheckCharacter(body)}`;
};

/** Labeler 5 digits, product 4 digits: unique per document and product. */
function ndc(doc: number, k: number): string {
  return `${String(10000 + Math.floor(doc / 4000)).padStart(5, '0')}-${String(1000 + ((doc * 2 + k) % 8000)).padStart(4, '0')}`;
}

function product(doc: number, k: number): string {
  // Every 1000th document repeats the first product of the document before it; every 5000th has a product code that is no NDC.
  const code = doc % 5000 === 4999 && k === 1 ? 'ABC' : doc % 1000 === 999 && k === 0 ? ndc(doc - 1, 0) : ndc(doc, k);
  const ingredientCode = doc % 7000 === 6999 ? 'ZZZZZZZZZA' : unii(doc % 900);
  const pack = (p: string, inner: string): string => `<asContent>
                  <quantity><numerator value="${p === '10' ? 100 : 30}" unit="1"/><denominator value="1" unit="1"/></quantity>
                  <containerPackagedProduct>
                    <code code="${code}-${p}" codeSystem="2.16.840.1.113883.6.69"/>
                    <formCode code="C43169" codeSystem="2.16.840.1.113883.3.26.1.1" displayName="BOTTLE"/>${inner}
                  </containerPackagedProduct>
                </asContent>`;
  return `<subject>
            <manufacturedProduct>
              <manufacturedProduct>
                <code code="${code}" codeSystem="2.16.840.1.113883.6.69"/>
                <name>Médicament ${doc}-${k}</name>
                <formCode code="C42998" codeSystem="2.16.840.1.113883.3.26.1.1" displayName="TABLET"/>
                <asEntityWithGeneric><genericMedicine><name>SUBSTANCE ${doc % 900}</name></genericMedicine></asEntityWithGeneric>
                <ingredient classCode="ACTIB">
                  <quantity><numerator value="${(k + 1) * 250}" unit="mg"/><denominator value="1" unit="1"/></quantity>
                  <ingredientSubstance>
                    <code code="${ingredientCode}" codeSystem="2.16.840.1.113883.4.9"/>
                    <name>SUBSTANCE ${doc % 900}</name>
                    <activeMoiety><activeMoiety><code code="${unii(900 + (doc % 900))}" codeSystem="2.16.840.1.113883.4.9"/><name>MOIETY ${doc % 900}</name></activeMoiety></activeMoiety>
                  </ingredientSubstance>
                </ingredient>
                <ingredient classCode="IACT">
                  <ingredientSubstance><code code="${unii(1800)}" codeSystem="2.16.840.1.113883.4.9"/><name>POVIDONE K30</name></ingredientSubstance>
                </ingredient>
                ${pack('10', '')}
                ${pack('20', `\n                    ${pack('21', '').replace(/\n/g, '\n    ')}`)}
              </manufacturedProduct>
              <consumedIn><substanceAdministration><routeCode code="C38288" codeSystem="2.16.840.1.113883.3.26.1.1" displayName="ORAL"/></substanceAdministration></consumedIn>
              <subjectOf><approval><id extension="ANDA${String(doc).padStart(6, '0')}" root="2.16.840.1.113883.3.150"/><code code="C73584" codeSystem="2.16.840.1.113883.3.26.1.1" displayName="ANDA"/></approval></subjectOf>
              <subjectOf><marketingAct><code code="C53292" codeSystem="2.16.840.1.113883.3.26.1.1"/><statusCode code="active"/><effectiveTime><low value="20080101"/></effectiveTime></marketingAct></subjectOf>
            </manufacturedProduct>
          </subject>`;
}

/** The text of document `doc`, with `narrative` text sections of about 1 kB each. */
export function splDocument(doc: number, narrative = 20): string {
  const sections = Array.from({ length: narrative }, (_, s) => `<component><section><code code="34067-9" codeSystem="2.16.840.1.113883.6.1" displayName="INDICATIONS &amp; USAGE SECTION"/><title>Section ${s}</title><text>${NARRATIVE}</text></section></component>`).join('\n      ');
  return `<?xml version="1.0" encoding="UTF-8"?>
<document xmlns="urn:hl7-org:v3" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="urn:hl7-org:v3 https://www.accessdata.fda.gov/spl/schema/spl.xsd">
  <id root="5e2c7a9b-1f3d-4b6e-8a0c-${String(doc).padStart(12, '0')}"/>
  <code code="34391-3" codeSystem="2.16.840.1.113883.6.1" displayName="HUMAN PRESCRIPTION DRUG LABEL"/>
  <title>MÉDICAMENT ${doc} tablets, for oral use</title>
  <effectiveTime value="20250115"/>
  <setId root="a1b2c3d4-e5f6-4a7b-8c9d-${String(doc).padStart(12, '0')}"/>
  <versionNumber value="3"/>
  <author><time/><assignedEntity><representedOrganization><id extension="${String(78498736 + (doc % 500)).padStart(9, '0')}" root="1.3.6.1.4.1.519.1"/><name>Laboratoires Santé ${doc % 500}</name></representedOrganization></assignedEntity></author>
  <component>
    <structuredBody>
      ${sections}
      <component>
        <section>
          <code code="48780-1" codeSystem="2.16.840.1.113883.6.1" displayName="SPL PRODUCT DATA ELEMENTS SECTION"/>
          ${product(doc, 0)}
          ${product(doc, 1)}
        </section>
      </component>
    </structuredBody>
  </component>
</document>
`;
}

/** Writes `n` documents into `dir` (`spl-000001.xml` …) and returns their paths. */
export async function writeSplDocuments(dir: string, n: number, narrative = 20): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const paths: string[] = [];
  for (let doc = 0; doc < n; doc += 1) {
    const path = join(dir, `spl-${String(doc).padStart(6, '0')}.xml`);
    await writeFile(path, splDocument(doc, narrative));
    paths.push(path);
  }
  return paths;
}
