/**
 * The code tables (`DICCIONARIO_*.xml`) that ship beside `Prescripcion.xml` in the AEMPS
 * nomenclátor de prescripción zip. The nomenclátor itself gives codes only (active substance,
 * holder, dose form, route, registration situation, content unit), so each table turns one
 * kind of code into the Spanish name the AEMPS publishes. Each table is a flat list of records
 * under its own root (`aemps_prescripcion_<table>`), namespaced like the nomenclátor; the
 * namespace prefix, where a release writes one, is ignored.
 */
import { FileRejectedError, findFile } from './common.ts';
import type { InputFile } from './common.ts';
import { streamRecords, textOf } from './xml-records.ts';

/** One code table: file, root and record element, the elements holding its codes and its name. */
interface DictionarySpec {
  file: string;
  root: string;
  record: string;
  /** Every element that holds a code the nomenclátor may refer to (the substance table has two). */
  codes: readonly string[];
  name: string;
}

/** The tables the adapter reads, by the role they play for the nomenclátor. */
export const ES_CIMA_DICTIONARIES = {
  substances: {
    file: 'DICCIONARIO_PRINCIPIOS_ACTIVOS.xml', root: 'aemps_prescripcion_principios_activos', record: 'principiosactivos',
    codes: ['nroprincipioactivo', 'codigoprincipioactivo'], name: 'principioactivo',
  },
  holders: {
    file: 'DICCIONARIO_LABORATORIOS.xml', root: 'aemps_prescripcion_laboratorios', record: 'laboratorios',
    codes: ['codigolaboratorio'], name: 'laboratorio',
  },
  forms: {
    file: 'DICCIONARIO_FORMA_FARMACEUTICA.xml', root: 'aemps_prescripcion_formas_farmaceuticas', record: 'formasfarmaceuticas',
    codes: ['codigoformafarmaceutica'], name: 'formafarmaceutica',
  },
  routes: {
    file: 'DICCIONARIO_VIAS_ADMINISTRACION.xml', root: 'aemps_prescripcion_vias_administracion', record: 'viasadministracion',
    codes: ['codigoviaadministracion'], name: 'viaadministracion',
  },
  situations: {
    file: 'DICCIONARIO_SITUACION_REGISTRO.xml', root: 'aemps_prescripcion_situacion_registro', record: 'situacionesregistro',
    codes: ['codigosituacionregistro'], name: 'situacionregistro',
  },
  contentUnits: {
    file: 'DICCIONARIO_UNIDAD_CONTENIDO.xml', root: 'aemps_prescripcion_unidad_contenido', record: 'unidadescontenido',
    codes: ['codigounidadcontenido'], name: 'unidadcontenido',
  },
} as const satisfies Record<string, DictionarySpec>;

export type DictionaryRole = keyof typeof ES_CIMA_DICTIONARIES;

/** Code → name of every table given; a table not given is an empty map. */
export type Dictionaries = Record<DictionaryRole, ReadonlyMap<string, string>>;

/** Rows read and kept of one table, for the file report. */
export interface DictionaryReport {
  file: string;
  role: string;
  read: number;
  kept: number;
}

/** Numeric codes compare as numbers (`054` and `54` are one code), others upper case. */
export function dictionaryCode(raw: string): string {
  const code = raw.trim();
  return /^\d+$/.test(code) ? String(Number(code)) : code.toUpperCase();
}

function readDictionary(file: InputFile, spec: DictionarySpec): { map: Map<string, string>; report: DictionaryReport } {
  const map = new Map<string, string>();
  let read = 0;
  let kept = 0;
  streamRecords(file.name, file.content, {
    roots: [spec.root],
    records: [spec.record],
    onRecord(_path, record) {
      read += 1;
      const name = textOf(record, spec.name).replace(/\s+/g, ' ');
      const codes = spec.codes.map((element) => textOf(record, element)).filter((code) => code !== '');
      if (name === '' || codes.length === 0) return;
      kept += 1;
      for (const code of codes) map.set(dictionaryCode(code), name);
    },
  });
  return { map, report: { file: file.name, role: spec.file.replace(/\.xml$/i, ''), read, kept } };
}

/**
 * Reads every table among `files`; the substance table is required (without it no ingredient
 * has a name), the others are optional and their codes stay unnamed when absent.
 */
export function readDictionaries(files: InputFile[]): { dictionaries: Dictionaries; reports: DictionaryReport[] } {
  const reports: DictionaryReport[] = [];
  const dictionaries = {} as Record<DictionaryRole, ReadonlyMap<string, string>>;
  for (const [role, spec] of Object.entries(ES_CIMA_DICTIONARIES) as Array<[DictionaryRole, DictionarySpec]>) {
    const file = findFile(files, spec.file);
    if (!file) {
      if (role === 'substances') throw new FileRejectedError(spec.file, 'missing: the nomenclátor names its active substances only through this table');
      dictionaries[role] = new Map();
      continue;
    }
    const { map, report } = readDictionary(file, spec);
    if (role === 'substances' && map.size === 0) throw new FileRejectedError(file.name, 'no principiosactivos records with a code and a name');
    dictionaries[role] = map;
    reports.push(report);
  }
  return { dictionaries, reports };
}
