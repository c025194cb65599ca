import type { SearchAttributeUpdatePair } from '@temporalio/common';
import { setCurrentDetails, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { RunProgress } from '../run/progress.js';
import { runPosition, type RunPosition } from '../run/story.js';
import { searchAttributes } from '../temporal/names.js';

/** Moves the run to a stage: its progress, current details and search attribute, plus `also` written with it. */
export type StageMove = (name: string, also?: SearchAttributeUpdatePair[]) => void;

/** Moves the run's current details within a stage (who speaks, the tool calls so far); the turn is the progress's. */
export type Tell = (change: Partial<RunPosition>) => void;

/** How a run shows where it is: its progress query, its current details in the Web UI and its stage search attribute. */
export interface RunDisplay {
  stage: StageMove;
  tell: Tell;
  /** Names where the run's files are (a line of runPlace, from the prepare stage's result), under every later current details; null: where the batch says. */
  place(line: string | null): void;
  /** Sets the current details to `text`, with the place under it. */
  show(text: string): void;
}

/** The run's display, moved by `stage` and `tell` as the run goes; `fewerWrites` is the side of that patch the run is on. */
export function runDisplay(progress: RunProgress, fewerWrites: boolean): RunDisplay {
  // What the Web UI's current details say; each stage and each dialogue step moves it.
  const position: RunPosition = { stage: 'prepare', turn: 0, maxTurns: progress.maxTurns, toolCalls: 0 };
  // Current details are a query's answer, never in the history: changing them needs no patch.
  let where: string | null = null;
  const show = (text: string) => setCurrentDetails(where ? `${text}\n\n${where}` : text);
  const tell: Tell = (change) => {
    Object.assign(position, change, { turn: progress.turn });
    show(runPosition(position));
  };
  let shownStage = workflowInfo().typedSearchAttributes.get(searchAttributes.stage);
  const stage: StageMove = (name, also = []) => {
    progress.stage = name;
    if (fewerWrites) {
      const changes = [...(shownStage === name ? [] : [{ key: searchAttributes.stage, value: name }]), ...also];
      if (changes.length > 0) upsertSearchAttributes(changes);
      shownStage = name;
    } else {
      upsertSearchAttributes([{ key: searchAttributes.stage, value: name }]);
      if (also.length > 0) upsertSearchAttributes(also);
    }
    tell({ stage: name });
  };
  const place = (line: string | null) => {
    where = line;
    show(runPosition(position));
  };
  return { stage, tell, place, show };
}

/** An activity's summary in the Web UI; a run started again on another host says which attempt of the run this is. */
export function said(summary: string, generation: number): { summary: string } {
  return { summary: generation > 0 ? `${summary} · attempt ${generation + 1}` : summary };
}
