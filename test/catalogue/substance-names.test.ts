import { describe, expect, it } from 'vitest';
import { innKey, normaliseInnName, splitCombination } from '../../vocabulary/substance-names.ts';

// Real spellings from each register: FDA NDC SUBSTANCENAME / UNII names (en), BDPM CIS_COMPO (fr),
// BAG SL and Swissmedic (la, de), AIFA (it), CIMA/AEMPS (es), dm+d VTM (en).
const SAME_KEY: Array<[string, string[]]> = [
  ['metformin', ['METFORMIN HYDROCHLORIDE', 'CHLORHYDRATE DE METFORMINE', 'Metformini hydrochloridum', 'Metforminhydrochlorid',
    'metformina cloridrato', 'hidrocloruro de metformina', 'METFORMINE', 'Metformin', 'METFORMINE (CHLORHYDRATE DE)', 'Metformin HCl']],
  ['ibuprofen', ['IBUPROFEN', 'Ibuprofenum', 'IBUPROFÈNE', 'ibuprofene', 'Ibuprofeno']],
  ['paracetamol', ['PARACÉTAMOL', 'Paracetamolum', 'Paracetamol', 'paracetamolo', 'ACETAMINOPHEN']],
  ['amlodipin', ['AMLODIPINE BESYLATE', "BÉSILATE D'AMLODIPINE", 'Amlodipini besilas', 'Amlodipinbesilat', 'amlodipina besilato', 'Amlodipine']],
  ['levotiroxin', ['LEVOTHYROXINE SODIUM', 'LÉVOTHYROXINE SODIQUE', 'Levothyroxinum natricum', 'Levothyroxin-Natrium', 'levotiroxina sódica']],
  ['diclofenac', ['DICLOFENAC SODIUM', 'DICLOFÉNAC SODIQUE', 'Diclofenacum natricum', 'Diclofenac-Natrium', 'diclofenaco sódico', 'diclofenac potassium', 'Diclofenac-Kalium']],
  ['atorvastatin', ['ATORVASTATIN CALCIUM TRIHYDRATE', 'ATORVASTATINE CALCIQUE TRIHYDRATÉE', 'Atorvastatinum calcicum trihydricum', 'Atorvastatin-Calcium']],
  ['morfin', ['MORPHINE SULFATE', 'SULFATE DE MORPHINE', 'Morphini hydrochloridum trihydricum', 'Morphinsulfat', 'morfina solfato']],
  ['codein', ['CODEINE PHOSPHATE HEMIHYDRATE', 'PHOSPHATE DE CODÉINE HÉMIHYDRATÉ', 'Codeini phosphas hemihydricus', 'Codeinphosphat', 'codeína fosfato']],
  ['amoxicilin', ['AMOXICILLIN', 'AMOXICILLINE TRIHYDRATÉE', 'Amoxicillinum trihydricum', 'Amoxicillin-Trihydrat', 'amoxicilina trihidrato']],
  ['acetilsalicilic acid', ['ASPIRIN', 'ACIDE ACÉTYLSALICYLIQUE', 'Acidum acetylsalicylicum', 'Acetylsalicylsäure', 'acido acetilsalicilico', 'ácido acetilsalicílico']],
  ['metoprolol', ['METOPROLOL TARTRATE', 'Metoprololi tartras (2:1)', 'TARTRATE DE MÉTOPROLOL', 'Metoprololtartrat', 'Metoprololi succinas', 'metoprololo tartrato']],
  // The anion of a cation salt is its acid; an amino-acid salt former folds like any salt.
  ['clavulanic acid', ['CLAVULANATE DE POTASSIUM', 'Kalii clavulanas', 'CLAVULANATE POTASSIUM', 'Acidum clavulanicum', 'ACIDE CLAVULANIQUE', 'clavulanic acid']],
  ['acetilsalicilic acid', ['ACÉTYLSALICYLATE DE DL-LYSINE', 'Lysini acetylsalicylas', 'lysine acetylsalicylate']],
  ['valproic acid', ['VALPROIC ACID', 'Valproinsäure', 'VALPROATE DE SODIUM', 'Natrii valproas', 'acido valproico']],
  ['ipratropium', ['IPRATROPIUM BROMIDE', "BROMURE D'IPRATROPIUM", 'Ipratropii bromidum', 'Ipratropiumbromid']],
  ['chloride sodium', ['SODIUM CHLORIDE', 'CHLORURE DE SODIUM', 'Natrii chloridum', 'Natriumchlorid', 'cloruro di sodio']],
];

describe('normaliseInnName', () => {
  it.each(SAME_KEY)('folds every register spelling of %s to one key', (key, spellings) => {
    expect(spellings.map(innKey)).toEqual(spellings.map(() => key));
  });

  it('keeps the salt in the full key and says when it was folded', () => {
    expect(normaliseInnName('CHLORHYDRATE DE METFORMINE')).toEqual([{ key: 'metformin', full: 'metformin hydrochloride', saltFolded: true, curated: false }]);
    expect(normaliseInnName('Metformini hydrochloridum')[0]!.full).toBe(normaliseInnName('METFORMIN HYDROCHLORIDE')[0]!.full);
    expect(normaliseInnName('METFORMINE')).toEqual([{ key: 'metformin', full: 'metformin', saltFolded: false, curated: false }]);
    // A hydrate word alone is a fold too; a curated USAN → INN synonym is marked.
    expect(normaliseInnName('amoxicilline trihydratée')[0]).toMatchObject({ full: 'amoxicilin', saltFolded: true });
    expect(normaliseInnName('ACETAMINOPHEN')[0]).toMatchObject({ key: 'paracetamol', curated: true });
    expect(normaliseInnName('Paracetamolum')[0]).toMatchObject({ key: 'paracetamol', curated: false });
  });

  it('does not fold a salt that is the substance itself, nor an inorganic one to its anion', () => {
    expect(innKey('oxyde de magnésium')).toBe('magnesium oxide');
    expect(innKey('Magnesii oxidum')).toBe('magnesium oxide');
    expect(innKey('CALCIUM CARBONATE')).toBe(innKey('carbonate de calcium'));
  });

  it('splits combinations on et / und / and / e / y / "/" / "+"', () => {
    expect(splitCombination('PARACÉTAMOL et CODÉINE')).toEqual(['paracetamol', 'codeine']);
    expect(normaliseInnName('Metformin und Sitagliptin').map((n) => n.key)).toEqual(['metformin', 'sitagliptin']);
    expect(normaliseInnName('sitagliptin and metformin hydrochloride').map((n) => n.key)).toEqual(['sitagliptin', 'metformin']);
    expect(normaliseInnName('amlodipina e valsartan').map((n) => n.key)).toEqual(['amlodipin', 'valsartan']);
    expect(normaliseInnName('amlodipino y valsartán').map((n) => n.key)).toEqual(['amlodipin', 'valsartan']);
    expect(normaliseInnName('losartan potassium / hydrochlorothiazide')).toHaveLength(2);
    expect(normaliseInnName('Ibuprofen + Coffein')).toHaveLength(2);
    expect(normaliseInnName('Amlodipine besylate, valsartan, and hydrochlorothiazide')).toHaveLength(3);
    // A single substance is one component, and a combination has no single key.
    expect(normaliseInnName('vitamine E')).toEqual([{ key: 'vitamin e', full: 'vitamin e', saltFolded: false, curated: false }]);
    expect(innKey('Metformin und Sitagliptin')).toBeNull();
  });

  it('drops qualifiers in parentheses and blank names', () => {
    expect(innKey('INSULIN HUMAN (RDNA ORIGIN)')).toBe('insulin human');
    // A stereo descriptor names another substance: (R)-cetirizine is not cetirizine.
    expect(innKey('(R)-CETIRIZINE')).not.toBe(innKey('CETIRIZINE'));
    expect(innKey('(+)-PSEUDOEPHEDRINE')).not.toBe(innKey('(-)-PSEUDOEPHEDRINE'));
    expect(normaliseInnName('  ')).toEqual([]);
    expect(normaliseInnName('de')).toEqual([]);
  });
});
