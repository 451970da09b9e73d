/**
 * One level of one policy source, before validation: where it comes from (a file, or a registry
 * key) and the values it names. Layers are applied weakest first; a later one wins.
 */
import type { PolicyLevel } from './policy-schema';

export interface PolicyLayer {
  /** The file path or registry key, as `callbar policy` and error lines name it. */
  origin: string;
  level: PolicyLevel;
  /** Policy name → value as the source holds it (unknown names included: they are reported). */
  values: Record<string, unknown>;
}
