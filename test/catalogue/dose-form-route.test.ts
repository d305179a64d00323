import { describe, expect, it } from 'vitest';
import { routeOfDoseForm, routesOfDoseForms } from '../../vocabulary/dose-form-route.ts';
import type { WhoRoute } from '../../vocabulary/dose-form-route.ts';

// Product names and form fields as the registers publish them.
describe('routeOfDoseForm', () => {
  it.each<[string, string, WhoRoute]>([
    // SL / Refdata / Swissmedic: the form only in the name (DescriptionDe/Fr/It).
    ['SL Filmtabl', 'Zocor Filmtabl 20 mg', 'O'],
    ['SL Divitabs', 'Lopresor Retard Divitabs 200 mg', 'O'],
    ['SL Kaps', 'Ponstan Kaps 250 mg', 'O'],
    ['SL Inj Lös', 'Liquemine Inj Lös 25000 IE/5ml', 'P'],
    ['SL Inf Konz', 'Oxaliplatin Inf Konz 100 mg/20ml', 'P'],
    ['SL Trockensub', 'Ceftriaxon Trockensub 1 g i.v.', 'P'],
    ['SL Supp', 'Dafalgan Supp 600 mg', 'R'],
    ['SL Creme', 'Fucidin Creme 2 %', 'local'],
    ['SL Tropfen', 'Novalgin Tropfen 500 mg/ml', 'O'],
    ['SL Gtt Opht', 'Timoptic Gtt Opht 0.5 %', 'local'],
    ['SL Brausetabl', 'Dafalgan Brausetabl 1 g', 'O'],
    ['SL Vaginalzäpfchen', 'Gyno-Pevaryl Vaginalzäpfchen 150 mg', 'V'],
    ['SL Trinkamp', 'Calcium Sandoz Trinkamp 500 mg', 'O'],
    ['SL Nasenspray', 'Nasonex Nasenspray 50 mcg', 'N'],
    ['SL Dosieraeros', 'Ventolin Dosieraeros 100 mcg', 'Inhal'],
    ['SL Matrixpfl', 'Durogesic Matrixpfl 25 mcg/h', 'TD'],
    ['SL Sublingualtabl', 'Temgesic Sublingualtabl 0.2 mg', 'SL'],
    ['SL Inj Susp', 'Depo-Provera Inj Susp 150 mg/ml', 'P'],
    ['SL Fertspr', 'Clexane Inj Lös 40 mg/0.4ml Fertspr', 'P'],
    ['SL FR comprimé', 'Zocor cpr pell 20 mg', 'O'],
    ['SL FR gélule', 'Ponstan gélules 250 mg', 'O'],
    ['SL IT compresse', 'Zocor compresse rivestite 20 mg', 'O'],
    ['SL IT cpr', 'Exemplol cpr rivest 500 mg', 'O'],
    // BDPM form field.
    ['BDPM comprimé pelliculé sécable', 'comprimé pelliculé sécable', 'O'],
    ['BDPM gélule', 'gélule', 'O'],
    ['BDPM solution injectable', 'solution injectable', 'P'],
    ['BDPM solution buvable', 'solution buvable en gouttes', 'O'],
    ['BDPM poudre pour solution injectable', 'poudre pour solution injectable et pour perfusion', 'P'],
    ['BDPM suppositoire', 'suppositoire', 'R'],
    ['BDPM collyre', 'collyre en solution', 'local'],
    ['BDPM pulvérisation nasale', 'solution pour pulvérisation nasale', 'N'],
    ['BDPM dispositif transdermique', 'dispositif transdermique', 'TD'],
    ['BDPM ovule', 'ovule', 'V'],
    ['BDPM inhalation', 'suspension pour inhalation par nébuliseur', 'Inhal'],
    ['BDPM crème', 'crème', 'local'],
    // German Darreichungsform codes and words.
    ['DE FTA', 'FTA', 'O'],
    ['DE TAB', 'TAB', 'O'],
    ['DE HKP', 'HKP', 'O'],
    ['DE BTA', 'BTA', 'O'],
    ['DE ILO', 'ILO', 'P'],
    ['DE SUP', 'SUP', 'R'],
    ['DE CRE', 'CRE', 'local'],
    ['DE Filmtabletten', 'Filmtabletten', 'O'],
    ['DE Hartkapseln', 'Hartkapseln, magensaftresistent', 'O'],
    ['DE Injektionslösung', 'Injektionslösung in einer Fertigspritze', 'P'],
    ['DE Gel zum Einnehmen', 'Gel zum Einnehmen', 'O'],
    ['DE Inhalationskapseln', 'Hartkapseln mit Pulver zur Inhalation', 'Inhal'],
    // dm+d and FDA in English.
    ['dm+d gastro-resistant tablet', 'Gastro-resistant tablet', 'O'],
    ['dm+d solution for injection', 'Solution for injection', 'P'],
    ['dm+d eye drops', 'Eye drops', 'local'],
    ['dm+d pessary', 'Pessary', 'V'],
    ['dm+d oromucosal spray', 'Oromucosal spray', 'SL'],
    ['dm+d VMP name', 'Insulin soluble human 100units/ml solution for injection 10ml vials', 'P'],
    ['FDA TABLET, FILM COATED', 'TABLET, FILM COATED', 'O'],
    ['FDA INJECTION, SOLUTION', 'INJECTION, SOLUTION', 'P'],
    ['FDA CAPSULE, EXTENDED RELEASE', 'CAPSULE, EXTENDED RELEASE', 'O'],
    ['FDA SUPPOSITORY', 'SUPPOSITORY', 'R'],
  ])('%s', (_label, text, route) => {
    expect(routeOfDoseForm(text)).toBe(route);
  });

  it.each([
    ['a solution that goes several ways', 'Lös 100 mg/ml'],
    ['a powder', 'Plv 20 g'],
    ['a brand name only', 'Exemplol'],
    ['three capitals inside a name', 'Simvastatin FTA 20 mg'],
    ['nothing', ''],
  ])('names no route for %s', (_label, text) => {
    expect(routeOfDoseForm(text)).toBeNull();
  });

  it('reads each form of a list once', () => {
    expect(routesOfDoseForms('comprimé pelliculé; solution injectable')).toEqual(['O', 'P']);
    expect(routesOfDoseForms('comprimé et gélule')).toEqual(['O']);
    expect(routesOfDoseForms(null)).toEqual([]);
  });
});
