/**
 * `procurement-connector schema` as a user runs it (the built CLI): the list of names, one schema
 * as JSON, and exit 2 for a name it does not know.
 */
import { describe, expect, it } from 'vitest';
import { jsonSchemaOf } from '../../src/config/json-schema.js';
import { JSON_SCHEMA_NAMES } from '../../src/config/schema-files.js';
import { spawnCli, useBuiltCli } from '../helpers/built-cli.js';

const built = useBuiltCli();

async function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const cli = spawnCli(built(), args);
  const { code } = await cli.exited;
  return { code, stdout: cli.stdout(), stderr: cli.stderr() };
}

describe('schema (the built CLI)', () => {
  it('without a name lists the names, one a line', async () => {
    expect(await run(['schema'])).toEqual({ code: 0, stdout: `${JSON_SCHEMA_NAMES.join('\n')}\n`, stderr: '' });
  });

  it.each(JSON_SCHEMA_NAMES)('%s: prints that schema as JSON, 2-space indented', async (name) => {
    const { code, stdout } = await run(['schema', name]);
    expect(code).toBe(0);
    expect(stdout).toBe(`${JSON.stringify(jsonSchemaOf(name), null, 2)}\n`);
  });

  it('an unknown name exits 2 and names the choices', async () => {
    const { code, stdout, stderr } = await run(['schema', 'connector']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('Allowed choices are config, mapping, mapping-requests');
  });
});
