/**
 * What an arm may change, with the value each takes; an experiment changes one of them and
 * nothing else. Import-free, so the CLI's help can show the grammar without loading the rest.
 */
export const ARM_CHANGES = [
  { key: 'workflow_rev', value: 'REV' },
  { key: 'workflow', value: 'DIR|none' },
  { key: 'candidate', value: 'NAME' },
  { key: 'model', value: 'M' },
] as const;
export type ArmChange = (typeof ARM_CHANGES)[number]['key'];

/** The grammar of `--arm`'s SPEC, for help texts: `base, workflow_rev=REV, …`. */
export const ARM_GRAMMAR = ['base', ...ARM_CHANGES.map((c) => `${c.key}=${c.value}`)].join(', ');
