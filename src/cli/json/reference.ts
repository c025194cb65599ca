import * as z from 'zod';

/** A JSON Schema node, as far as the reference reads it. */
interface Node {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  format?: string;
  description?: string;
  properties?: Record<string, Node>;
  required?: string[];
  items?: Node;
  additionalProperties?: Node | boolean;
  anyOf?: Node[];
}

/**
 * docs/json.md: per command, its document's fields (path, type, meaning) from the zod schema
 * that also checks what the command prints, so the page cannot drift from the output.
 */
export function renderJsonReference(outputs: readonly { command: string; schema: z.ZodType }[], preamble: string): string {
  const lines = [preamble.trimEnd(), ''];
  for (const { command, schema } of outputs) {
    const root = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as Node;
    lines.push(`## ${command}`, '', root.description ?? '', '', '| field | type | meaning |', '| --- | --- | --- |');
    for (const [path, node, required] of fields(root, '')) lines.push(`| \`${path}\` | ${typeOf(node)}${required ? '' : ' (optional)'} | ${(node.description ?? '').replace(/\|/g, '\\|')} |`);
    lines.push('');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

/** Every field below `node`, depth first: `runs[].run_id`, `labels.<key>`. */
function fields(node: Node, path: string): [string, Node, boolean][] {
  const object = objectOf(node);
  const out: [string, Node, boolean][] = [];
  if (object?.properties) {
    for (const [key, child] of Object.entries(object.properties)) {
      const childPath = path ? `${path}.${key}` : key;
      out.push([childPath, child, object.required?.includes(key) ?? false], ...fields(child, childPath));
    }
  } else if (object && typeof object.additionalProperties === 'object') {
    out.push(...fields(object.additionalProperties, `${path}.<key>`));
  }
  const items = arrayItems(node);
  if (items) out.push(...fields(items, `${path}[]`));
  return out;
}

function variants(node: Node): Node[] {
  return node.anyOf ?? [node];
}

function objectOf(node: Node): Node | undefined {
  return variants(node).find((v) => v.type === 'object');
}

function arrayItems(node: Node): Node | undefined {
  return variants(node).find((v) => v.type === 'array')?.items;
}

/** `string`, `integer or null`, `array of object`, `"ok" \| "failed"`, `map of string to integer`. */
function typeOf(node: Node): string {
  return variants(node)
    .flatMap((v): string[] => {
      if (v.const !== undefined) return [`\`${JSON.stringify(v.const)}\``];
      if (v.enum) return [v.enum.map((e) => `\`${JSON.stringify(e)}\``).join(' \\| ')];
      const types = Array.isArray(v.type) ? v.type : v.type ? [v.type] : ['any'];
      return types.map((t) => {
        if (t === 'array') return `array of ${v.items ? typeOf(v.items) : 'any'}`;
        if (t === 'object' && !v.properties && typeof v.additionalProperties === 'object') return `map of string to ${typeOf(v.additionalProperties)}`;
        return t;
      });
    })
    .join(' or ');
}
