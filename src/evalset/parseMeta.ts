import { checkYamlShape, parseYamlFile, sortByLine } from './parseYamlFile.js';
import { MetaSchema, SUPPLY_SIDE_FIELDS } from './schema.js';
import type { Meta } from './schema.js';

/**
 * Parse meta.yaml of the case in folder `folderName`. Supply-side keys get their own
 * explanation, and the id must equal the folder name so run ids and paths agree.
 */
export function parseMeta(text: string, file: string, folderName: string): { meta?: Meta; problems: string[] } {
  const yaml = parseYamlFile(text, file);
  if (yaml.data === undefined && yaml.problems.length > 0) return { problems: yaml.problems };

  if (yaml.data === null || yaml.data === undefined) {
    const keys = Object.entries(MetaSchema.shape).map(([key, field]) => (field.safeParse(undefined).success ? `optional ${key}` : key));
    return { problems: [`${file}: the file is empty; expected the keys ${keys.join(', ')}`] };
  }

  const problems: string[] = [];
  let data = yaml.data;
  if (isRecord(data)) {
    const supplySide = Object.keys(data).filter((key) => (SUPPLY_SIDE_FIELDS as readonly string[]).includes(key));
    for (const key of supplySide) problems.push(`${at(file, yaml.lineOf([key]))}: ${key}: ${supplySideMessage(key)}`);
    data = Object.fromEntries(Object.entries(data).filter(([key]) => !supplySide.includes(key)));
  }

  const checked = checkYamlShape(MetaSchema, data, yaml, file);
  problems.push(...checked.problems);
  if (checked.value && checked.value.id !== folderName) {
    problems.push(
      `${at(file, yaml.lineOf(['id']))}: id: expected the folder name ${JSON.stringify(folderName)}, found ${JSON.stringify(checked.value.id)}`,
    );
  }
  return problems.length > 0 ? { problems: sortByLine(problems, file) } : { meta: checked.value, problems };
}

function supplySideMessage(key: string): string {
  return (
    'eval cases never name the supply side (model, candidate, agent, IDE, provider, workflow version); ' +
    `remove "${key}" from meta.yaml and set it in evalflow.config.yaml or with a command-line flag`
  );
}

function at(file: string, line: number | undefined): string {
  return line === undefined ? file : `${file}:${line}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
