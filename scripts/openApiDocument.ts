import { readFileSync } from 'node:fs';
import { generateOpenApiDocument } from '../api/index.ts';

export const OPENAPI_FILE = new URL('../api/openapi.json', import.meta.url);

/** The committed form of the document: generated from the route table, two-space JSON. */
export function openApiDocumentText(): string {
  const { version } = JSON.parse(
    readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
  ) as { version: string };
  return `${JSON.stringify(generateOpenApiDocument({ version }), null, 2)}\n`;
}
