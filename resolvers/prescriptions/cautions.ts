/**
 * Drug–context cautions of prescription screening: pregnancy, renal function (KDIGO eGFR
 * categories), conditions, age bands and sex. Each rule names an ATC prefix (a substance or
 * a whole class) and the level it raises. Demonstration rules drawn from product information
 * (sections 4.3, 4.4, 4.6) — not for clinical use.
 */

export const AGE_BANDS = ['0-1', '2-11', '12-17', '18-64', '65-79', '80+'] as const;
export const SEXES = ['female', 'male', 'other', 'unknown'] as const;
export const PREGNANCY = ['pregnant', 'not_pregnant', 'unknown'] as const;
/** KDIGO GFR categories: g1 ≥90, g2 60–89, g3a 45–59, g3b 30–44, g4 15–29, g5 <15 mL/min/1.73 m². */
export const EGFR_BANDS = ['g1', 'g2', 'g3a', 'g3b', 'g4', 'g5'] as const;
export const CONDITIONS = [
  'asthma', 'heart_failure', 'peptic_ulcer', 'long_qt', 'epilepsy', 'myasthenia_gravis', 'angle_closure_glaucoma', 'liver_disease',
] as const;

export type Level = 'contraindicated' | 'caution';
export interface CautionRule { atc: string; level: Level; message: string }

export const PREGNANCY_RULES: CautionRule[] = [
  { atc: 'B01AA', level: 'contraindicated', message: 'Vitamin K antagonists are teratogenic (coumarin embryopathy) and cause fetal bleeding; use a low-molecular-weight heparin.' },
  { atc: 'B01AF', level: 'contraindicated', message: 'Factor Xa inhibitors are contraindicated in pregnancy; use a low-molecular-weight heparin.' },
  { atc: 'B01AE07', level: 'contraindicated', message: 'Dabigatran is contraindicated in pregnancy; use a low-molecular-weight heparin.' },
  { atc: 'C09', level: 'contraindicated', message: 'Renin-angiotensin system blockers cause fetal renal failure, oligohydramnios and skull hypoplasia in the second and third trimesters; switch before conception or as soon as pregnancy is known.' },
  { atc: 'C10AA', level: 'contraindicated', message: 'Statins are contraindicated in pregnancy; stop during pregnancy.' },
  { atc: 'L04AX03', level: 'contraindicated', message: 'Methotrexate is teratogenic and abortifacient.' },
  { atc: 'N03AG01', level: 'contraindicated', message: 'Valproate causes major malformations and neurodevelopmental disorders; not to be used in pregnancy unless no alternative (pregnancy prevention programme).' },
  { atc: 'L04AA06', level: 'contraindicated', message: 'Mycophenolate is teratogenic (miscarriage, malformations).' },
  { atc: 'G04CB01', level: 'contraindicated', message: 'Finasteride can feminise a male fetus.' },
  { atc: 'L02BA01', level: 'contraindicated', message: 'Tamoxifen is contraindicated in pregnancy.' },
  { atc: 'L02BG', level: 'contraindicated', message: 'Aromatase inhibitors are contraindicated in pregnancy.' },
  { atc: 'L01EA01', level: 'contraindicated', message: 'Imatinib is teratogenic in animals; avoid in pregnancy.' },
  { atc: 'J01AA', level: 'contraindicated', message: 'Tetracyclines affect fetal bone and tooth development after the first trimester.' },
  { atc: 'G03CA03', level: 'contraindicated', message: 'Oestradiol (hormone replacement) is contraindicated in pregnancy.' },
  { atc: 'M01A', level: 'caution', message: 'NSAIDs: avoid from 20 weeks (fetal renal dysfunction, oligohydramnios) and contraindicated in the third trimester (premature closure of the ductus arteriosus).' },
  { atc: 'N05AN01', level: 'caution', message: 'Lithium increases the risk of cardiac malformations (Ebstein anomaly); specialist management and level monitoring.' },
  { atc: 'N03AF01', level: 'caution', message: 'Carbamazepine increases the risk of neural tube defects; specialist review and high-dose folic acid.' },
  { atc: 'N03AB02', level: 'caution', message: 'Phenytoin is associated with fetal hydantoin syndrome; specialist review.' },
  { atc: 'N03AX11', level: 'caution', message: 'Topiramate increases the risk of oral clefts and neurodevelopmental disorders.' },
  { atc: 'H03BB', level: 'caution', message: 'Carbimazole and thiamazole cause embryopathy in the first trimester; propylthiouracil is preferred then.' },
  { atc: 'C01BD01', level: 'caution', message: 'Amiodarone can cause fetal hypo- or hyperthyroidism and bradycardia.' },
  { atc: 'J01MA', level: 'caution', message: 'Fluoroquinolones are avoided in pregnancy (arthropathy in animal studies).' },
];

type Egfr = (typeof EGFR_BANDS)[number];
export interface RenalRule extends CautionRule { bands: Egfr[] }

export const RENAL_RULES: RenalRule[] = [
  { atc: 'A10BA02', bands: ['g4', 'g5'], level: 'contraindicated', message: 'Metformin is contraindicated below eGFR 30 (lactic acidosis).' },
  { atc: 'A10BA02', bands: ['g3b'], level: 'caution', message: 'Metformin at eGFR 30–44: do not start; maximum 1 g a day, review renal function every 3 to 6 months.' },
  { atc: 'B01AE07', bands: ['g4', 'g5'], level: 'contraindicated', message: 'Dabigatran is contraindicated at creatinine clearance below 30 mL/min.' },
  { atc: 'B01AE07', bands: ['g3a', 'g3b'], level: 'caution', message: 'Dabigatran: consider the reduced dose and check renal function regularly.' },
  { atc: 'B01AF', bands: ['g5'], level: 'contraindicated', message: 'Factor Xa inhibitors are not recommended below creatinine clearance 15 mL/min.' },
  { atc: 'B01AF', bands: ['g4'], level: 'caution', message: 'Factor Xa inhibitors at creatinine clearance 15–29: use with caution and the reduced dose where labelled.' },
  { atc: 'M01A', bands: ['g4', 'g5'], level: 'contraindicated', message: 'NSAIDs are contraindicated in severe renal impairment.' },
  { atc: 'M01A', bands: ['g3a', 'g3b'], level: 'caution', message: 'NSAIDs can worsen renal function; use the lowest dose for the shortest time and monitor.' },
  { atc: 'J01XE01', bands: ['g4', 'g5'], level: 'contraindicated', message: 'Nitrofurantoin is ineffective and toxic below eGFR 30.' },
  { atc: 'J01XE01', bands: ['g3b'], level: 'caution', message: 'Nitrofurantoin at eGFR 30–44: only a short course for resistant organisms.' },
  { atc: 'C03DA04', bands: ['g4', 'g5'], level: 'contraindicated', message: 'Eplerenone is contraindicated below creatinine clearance 30 mL/min (hyperkalaemia).' },
  { atc: 'C03DA01', bands: ['g4', 'g5'], level: 'contraindicated', message: 'Spironolactone is contraindicated in severe renal impairment (hyperkalaemia).' },
  { atc: 'C03DA', bands: ['g3a', 'g3b'], level: 'caution', message: 'Aldosterone antagonists: check potassium and creatinine closely.' },
  { atc: 'A12BA01', bands: ['g4', 'g5'], level: 'caution', message: 'Potassium supplements in severe renal impairment risk hyperkalaemia.' },
  { atc: 'N05AN01', bands: ['g4', 'g5'], level: 'contraindicated', message: 'Lithium is avoided in severe renal impairment.' },
  { atc: 'N05AN01', bands: ['g3a', 'g3b'], level: 'caution', message: 'Lithium: reduce the dose and monitor levels closely.' },
  { atc: 'L04AX03', bands: ['g4', 'g5'], level: 'contraindicated', message: 'Methotrexate is contraindicated below creatinine clearance 30 mL/min.' },
  { atc: 'L04AX03', bands: ['g3a', 'g3b'], level: 'caution', message: 'Methotrexate: reduce the dose by half or more and monitor blood counts.' },
  { atc: 'M04AC01', bands: ['g4', 'g5'], level: 'contraindicated', message: 'Colchicine is contraindicated in severe renal impairment.' },
  { atc: 'A10BB01', bands: ['g4', 'g5'], level: 'contraindicated', message: 'Glibenclamide causes prolonged hypoglycaemia in severe renal impairment.' },
  { atc: 'A10BH01', bands: ['g3b', 'g4', 'g5'], level: 'caution', message: 'Sitagliptin: reduce the dose (50 mg below eGFR 45, 25 mg below 30).' },
  { atc: 'A10BK', bands: ['g4', 'g5'], level: 'caution', message: 'SGLT2 inhibitors lose glucose-lowering effect at low eGFR; follow the product information for initiation limits.' },
  { atc: 'N03AX12', bands: ['g3a', 'g3b', 'g4', 'g5'], level: 'caution', message: 'Gabapentin: reduce the dose according to creatinine clearance.' },
  { atc: 'N03AX16', bands: ['g3a', 'g3b', 'g4', 'g5'], level: 'caution', message: 'Pregabalin: reduce the dose according to creatinine clearance.' },
  { atc: 'N03AX14', bands: ['g3b', 'g4', 'g5'], level: 'caution', message: 'Levetiracetam: reduce the dose according to creatinine clearance.' },
  { atc: 'C01AA05', bands: ['g3a', 'g3b', 'g4', 'g5'], level: 'caution', message: 'Digoxin accumulates in renal impairment; reduce the dose and monitor levels.' },
  { atc: 'M04AA01', bands: ['g3b', 'g4', 'g5'], level: 'caution', message: 'Allopurinol: start low and titrate to renal function.' },
  { atc: 'J05AB', bands: ['g3b', 'g4', 'g5'], level: 'caution', message: 'Aciclovir and valaciclovir: extend the dosing interval (neurotoxicity).' },
  { atc: 'B01AB05', bands: ['g4', 'g5'], level: 'caution', message: 'Enoxaparin accumulates below creatinine clearance 30 mL/min; reduce the dose.' },
  { atc: 'J01EA01', bands: ['g4', 'g5'], level: 'caution', message: 'Trimethoprim: halve the dose and watch potassium.' },
  { atc: 'N02AA01', bands: ['g4', 'g5'], level: 'caution', message: 'Morphine metabolites accumulate in renal impairment; reduce the dose or choose another opioid.' },
];

type Condition = (typeof CONDITIONS)[number];
export interface ConditionRule extends CautionRule { condition: Condition }

const QT_CAUTION = ['N05AD01', 'N07BC02', 'A04AA01', 'P01BA02', 'J01FA09', 'J01FA01', 'N05AH04', 'C01BD01', 'J01MA12'];

export const CONDITION_RULES: ConditionRule[] = [
  { condition: 'asthma', atc: 'C07AA', level: 'contraindicated', message: 'Non-selective beta-blockers can cause fatal bronchospasm in asthma.' },
  { condition: 'asthma', atc: 'C07AB', level: 'caution', message: 'Cardioselective beta-blockers: start low and monitor in asthma.' },
  { condition: 'asthma', atc: 'M01A', level: 'caution', message: 'NSAIDs can trigger bronchospasm in NSAID-exacerbated respiratory disease.' },
  { condition: 'heart_failure', atc: 'M01A', level: 'caution', message: 'NSAIDs cause sodium and water retention and worsen heart failure.' },
  { condition: 'heart_failure', atc: 'C08DA01', level: 'contraindicated', message: 'Verapamil is negatively inotropic; contraindicated in heart failure with reduced ejection fraction.' },
  { condition: 'heart_failure', atc: 'C08DB01', level: 'contraindicated', message: 'Diltiazem is negatively inotropic; contraindicated in heart failure with reduced ejection fraction.' },
  { condition: 'heart_failure', atc: 'A10BG03', level: 'contraindicated', message: 'Pioglitazone causes fluid retention; contraindicated in heart failure.' },
  { condition: 'heart_failure', atc: 'C01BC04', level: 'contraindicated', message: 'Flecainide is contraindicated in heart failure (proarrhythmia, negative inotropy).' },
  { condition: 'peptic_ulcer', atc: 'M01A', level: 'contraindicated', message: 'NSAIDs are contraindicated with active peptic ulceration.' },
  { condition: 'peptic_ulcer', atc: 'B01AC06', level: 'caution', message: 'Aspirin increases the risk of ulcer bleeding; add a proton pump inhibitor.' },
  ...['N06AB04', 'N06AB10', 'J01MA14', 'A03FA03', 'C07AA07'].map((atc): ConditionRule => ({ condition: 'long_qt', atc, level: 'contraindicated', message: 'Contraindicated in congenital or known QT prolongation (torsades de pointes).' })),
  ...QT_CAUTION.map((atc): ConditionRule => ({ condition: 'long_qt', atc, level: 'caution', message: 'Prolongs the QT interval; check the ECG and electrolytes or choose an alternative.' })),
  { condition: 'epilepsy', atc: 'N06AX12', level: 'contraindicated', message: 'Bupropion is contraindicated in seizure disorders.' },
  { condition: 'epilepsy', atc: 'N02AX02', level: 'caution', message: 'Tramadol lowers the seizure threshold.' },
  { condition: 'epilepsy', atc: 'J01MA', level: 'caution', message: 'Fluoroquinolones can provoke seizures.' },
  { condition: 'myasthenia_gravis', atc: 'J01MA', level: 'contraindicated', message: 'Fluoroquinolones can exacerbate myasthenia gravis (respiratory failure).' },
  { condition: 'myasthenia_gravis', atc: 'J01FA', level: 'caution', message: 'Macrolides can worsen myasthenic weakness.' },
  { condition: 'myasthenia_gravis', atc: 'C07', level: 'caution', message: 'Beta-blockers can worsen myasthenic weakness.' },
  { condition: 'angle_closure_glaucoma', atc: 'G04BD04', level: 'contraindicated', message: 'Antimuscarinics can precipitate acute angle closure.' },
  { condition: 'angle_closure_glaucoma', atc: 'N06AA09', level: 'caution', message: 'Amitriptyline is antimuscarinic and can precipitate angle closure.' },
  { condition: 'liver_disease', atc: 'L04AX03', level: 'contraindicated', message: 'Methotrexate is contraindicated in significant liver disease.' },
  { condition: 'liver_disease', atc: 'N02BE01', level: 'caution', message: 'Paracetamol: reduce the maximum daily dose in liver disease.' },
  { condition: 'liver_disease', atc: 'C10AA', level: 'caution', message: 'Statins are contraindicated in active liver disease or unexplained transaminase rises.' },
];

type AgeBand = (typeof AGE_BANDS)[number];
export interface AgeRule extends CautionRule { bands: AgeBand[] }

export const AGE_RULES: AgeRule[] = [
  { atc: 'B01AC06', bands: ['0-1', '2-11'], level: 'contraindicated', message: 'Aspirin is contraindicated in children (Reye syndrome).' },
  { atc: 'N02BA01', bands: ['0-1', '2-11'], level: 'contraindicated', message: 'Aspirin is contraindicated in children (Reye syndrome).' },
  { atc: 'B01AC06', bands: ['12-17'], level: 'caution', message: 'Aspirin under 16 years only on specialist advice (Reye syndrome).' },
  { atc: 'N02BA01', bands: ['12-17'], level: 'caution', message: 'Aspirin under 16 years only on specialist advice (Reye syndrome).' },
  { atc: 'R05DA04', bands: ['0-1', '2-11'], level: 'contraindicated', message: 'Codeine is contraindicated under 12 years (ultra-rapid metabolism, respiratory depression).' },
  { atc: 'N02AX02', bands: ['0-1', '2-11'], level: 'contraindicated', message: 'Tramadol is contraindicated under 12 years.' },
  { atc: 'J01MA', bands: ['0-1', '2-11', '12-17'], level: 'caution', message: 'Fluoroquinolones in children and adolescents: arthropathy risk; only where no alternative.' },
  { atc: 'J01AA', bands: ['0-1', '2-11'], level: 'caution', message: 'Tetracyclines under 8 years stain teeth and affect bone growth.' },
  { atc: 'N05BA', bands: ['65-79', '80+'], level: 'caution', message: 'Benzodiazepines in older adults increase falls, fractures and cognitive impairment.' },
  { atc: 'N05CF', bands: ['65-79', '80+'], level: 'caution', message: 'Z-drugs in older adults increase falls and fractures.' },
  { atc: 'N06AA09', bands: ['65-79', '80+'], level: 'caution', message: 'Amitriptyline is strongly anticholinergic in older adults (confusion, falls, retention).' },
  { atc: 'G04BD04', bands: ['65-79', '80+'], level: 'caution', message: 'Oxybutynin is strongly anticholinergic in older adults (cognitive decline).' },
  { atc: 'A10BB01', bands: ['65-79', '80+'], level: 'caution', message: 'Glibenclamide causes prolonged hypoglycaemia in older adults; prefer gliclazide.' },
];

export const SEX_RULES: Array<CautionRule & { sex: (typeof SEXES)[number] }> = [
  { sex: 'female', atc: 'G04CB01', level: 'contraindicated', message: 'Finasteride is contraindicated in women (risk to a male fetus).' },
];
