export type {
  Candidate,
  CandidateSession,
  CandidateSpec,
  CliAdapter,
  InvocationContext,
  NormalizerFactory,
  NormalizerOptions,
  ProcessExit,
  StreamNormalizer,
  TurnOutcome,
  TurnRequest,
  TurnResult,
} from './adapter.js';
export { createAgentCliLlm, renderPrompt, type AgentCliLlmSpec } from './agentCliLlm.js';
export { createBuiltinCandidate, type BuiltinCandidateDeps } from './builtin.js';
export { expandHostVariables } from './candidateEnv.js';
export { checkCandidateCanStart } from './checkCandidateCanStart.js';
export { createCliCandidate, type CliCandidateDeps } from './cliCandidate.js';
export { findCliInstallation, type CliInstallation } from './cliVersion.js';
export { findInstalledClis, type InstalledCli } from './installedClis.js';
export { createCommandCandidate } from './command.js';
export { createLineReader, type LineCut, type LineReader } from './lineReader.js';
export { runProcess, type ProcessRequest, type ProcessResult } from './processRunner.js';
export {
  CANDIDATE_ADAPTER_NAMES,
  createCandidateFactory,
  getCandidateAdapter,
  getCliAdapter,
  knownAdapterNames,
  type CandidateAdapterEntry,
  type CandidateDeps,
  type CandidateRunLimits,
} from './registry.js';
export { stableSessionId } from './sessionFiles.js';
export { whyCannotRunHere } from './whyCannotRunHere.js';
