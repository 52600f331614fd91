import { writeFileSync } from 'node:fs';
import { openApiDocumentText, OPENAPI_FILE } from './openApiDocument.ts';

writeFileSync(OPENAPI_FILE, openApiDocumentText());
console.log(`Wrote ${OPENAPI_FILE.pathname}`);
