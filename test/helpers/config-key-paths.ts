/** Every key path of a zod object schema: `platform.token`, `flows[].intake.stableForMs`, … */
import type { z } from 'zod';

export function keyPaths(schema: z.core.$ZodType, prefix = '', out: string[] = []): string[] {
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  const inner = (key: string) => def[key] as z.core.$ZodType;
  switch (def.type) {
    case 'default':
    case 'prefault':
    case 'optional':
    case 'nullable':
      return keyPaths(inner('innerType'), prefix, out);
    case 'pipe':
      return keyPaths(inner('in'), prefix, out);
    case 'array':
      return keyPaths(inner('element'), `${prefix}[]`, out);
    case 'object':
      for (const [key, child] of Object.entries(def.shape as Record<string, z.core.$ZodType>)) {
        const at = prefix === '' ? key : `${prefix}.${key}`;
        out.push(at);
        keyPaths(child, at, out);
      }
      return out;
    default:
      return out;
  }
}
