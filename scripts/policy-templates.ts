/**
 * Writes the administrators' policy templates (ADMX/ADML, .mobileconfig, policies.json example)
 * under resources/policy/, generated from the policy schema (src-main/core/config/policy/
 * policy-templates.ts). Run after changing a setting or policy; test/unit/core/config/policy-templates.test.ts
 * fails while the committed files differ.
 *
 *   npm run policy-templates
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { policyTemplates } from '../src-main/core/config/policy/policy-templates';

const root = join(import.meta.dirname, '../resources/policy');
for (const [path, text] of Object.entries(policyTemplates())) {
  const file = join(root, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  process.stdout.write(`wrote ${file}\n`);
}
