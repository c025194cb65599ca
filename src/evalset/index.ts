export {
  CASE_FILES,
  CASE_ID_EXPECTED,
  CASE_ID_PATTERN,
  ConditionSchema,
  EnvSchema,
  EvalCaseSchema,
  MAX_CASE_FILE_BYTES,
  MAX_HARD_REQUIREMENTS,
  MetaSchema,
  RubricSchema,
  SUPPLY_SIDE_FIELDS,
  TaskSchema,
} from './schema.js';
export type { CaseFile, Condition, Env, EvalCase, Meta, Rubric, Task } from './schema.js';
export { CheckResultSchema } from './checkResult.js';
export type { CheckResult } from './checkResult.js';
export { decodeCaseText } from './decodeCaseText.js';
export { CASE_VARIABLES, expandVariables, findUnknownVariables } from './expandVariables.js';
export type { CaseVariable, CaseVariables } from './expandVariables.js';
export { checkEvalCase, hashCaseFiles, loadEvalCase } from './loadEvalCase.js';
export type { CaseCheck, LoadOptions } from './loadEvalCase.js';
export { checkEvalBank, loadEvalBank } from './loadEvalBank.js';
export type { BankCheck, BankOptions } from './loadEvalBank.js';
export { parseEnv } from './parseEnv.js';
export { parseMeta } from './parseMeta.js';
export { parseRubric } from './parseRubric.js';
export { parseTask } from './parseTask.js';
export { scaffoldEvalCase } from './scaffoldEvalCase.js';
export { CasePackFileSchema, CasePackSchema, casePackDir, casePackHash, MAX_CASE_PACK_BYTES, MAX_CASE_PACK_FILES, packCase, unpackCase } from './casePack.js';
export type { CasePack, CasePackFile } from './casePack.js';
