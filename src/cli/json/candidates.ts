import * as z from 'zod';
import { jsonDocument } from './document.js';

export const CandidatesJson = jsonDocument(1, 'Every candidate adapter and whether its CLI is installed here (`evalflow candidates`).', {
  adapters: z
    .array(
    z.object({
      adapter: z.string().describe('the adapter name a candidate names in the config (claude-code, codex, command, …)'),
      agent: z.string().describe("the agent CLI and its executables, or the adapter's description when it needs no CLI"),
      needs_cli: z.boolean().describe("false for evalflow's own agent"),
      installed: z.boolean().nullable().describe('whether the CLI is on PATH; null when the adapter needs none'),
      path: z.string().nullable().describe("the CLI's path when installed"),
      setup: z.string().nullable().describe('how to install it, when it is not installed'),
      version: z.string().nullable().describe('the version it reports; null when not installed or it said none'),
    }),
    )
    .describe('every adapter evalflow knows, as the table lists them'),
});
