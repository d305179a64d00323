/**
 * Regenerates client/schema.ts, the typed client's types, from the OpenAPI document. Run
 * after changing a route: `node --import tsx client/generate.ts` (test/client/client.test.ts
 * fails while the committed file and the document differ).
 */
import { writeFile } from 'node:fs/promises';
import { clientSchemaText } from './schema-source.ts';

await writeFile(new URL('./schema.ts', import.meta.url), await clientSchemaText());
