// Writes packages/protocol/openapi.json from ENDPOINTS. Run: pnpm --filter @glossa/protocol generate
import { renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createOpenApiDocument } from '../src/openapi.js';

const target = fileURLToPath(new URL('../openapi.json', import.meta.url));
const text = `${JSON.stringify(createOpenApiDocument(), null, 2)}\n`;
writeFileSync(`${target}.tmp`, text);
renameSync(`${target}.tmp`, target);
console.log(`wrote ${target} (${text.length} bytes)`);
