import { FormatError, StoreError } from '../errors.js';
import { parseOrThrow } from '../format.js';
import { EpExampleRowInputSchema, EpExampleRowSchema, EpPredictionRowInputSchema, EpPredictionRowSchema, EpScoreRowInputSchema, EpScoreRowSchema } from './editPredictionSchema.js';
import type { SqlExecutor } from './sqlExecutor.js';
import type { Store } from './store.js';
import { isForeignKeyViolation, onlyRow, storeFailure, storeOperation } from './storeOperation.js';

type EpMethods = 'saveEpExample' | 'getEpExample' | 'saveEpPrediction' | 'getEpPredictions' | 'saveEpScore' | 'listEpScores';

const KEY = 'batch_id, example_key, provider, repetition';

/** The edit-prediction track's tables: examples, predictions and their scores. */
export function createEditPredictionRepository(sql: SqlExecutor): Pick<Store, EpMethods> {
  return {
    async saveEpExample(example) {
      const input = parseOrThrow(EpExampleRowInputSchema, example, 'saveEpExample(example)');
      return storeOperation(sql, `saveEpExample(${JSON.stringify(input.example_key)})`, async () => {
        // The key is a hash of the spec, so only the descriptive columns can differ on a re-save.
        const rows = await sql.query(
          `INSERT INTO ep_examples (example_key, name, repository_url, revision, spec)
           VALUES ($1::text, $2::text, $3::text, $4::text, $5::jsonb)
           ON CONFLICT (example_key) DO UPDATE
             SET name = EXCLUDED.name, repository_url = EXCLUDED.repository_url, revision = EXCLUDED.revision, spec = EXCLUDED.spec
           RETURNING example_key, name, repository_url, revision, spec, created_at`,
          [input.example_key, input.name, input.repository_url, input.revision, JSON.stringify(input.spec)],
        );
        return parseOrThrow(EpExampleRowSchema, onlyRow(rows, 'saveEpExample'), 'store: ep_examples row');
      });
    },

    async getEpExample(exampleKey) {
      return storeOperation(sql, `getEpExample(${JSON.stringify(exampleKey)})`, async () => {
        const rows = await sql.query(`SELECT example_key, name, repository_url, revision, spec, created_at FROM ep_examples WHERE example_key = $1`, [exampleKey]);
        return rows[0] === undefined ? null : parseOrThrow(EpExampleRowSchema, rows[0], 'store: ep_examples row');
      });
    },

    async saveEpPrediction(prediction) {
      const input = parseOrThrow(EpPredictionRowInputSchema, prediction, 'saveEpPrediction(prediction)');
      const operation = `saveEpPrediction(${describeKey(input)})`;
      try {
        const rows = await sql.query(
          `INSERT INTO ep_predictions (${KEY}, prediction) VALUES ($1::text, $2::text, $3::text, $4::integer, $5::jsonb)
           ON CONFLICT (${KEY}) DO UPDATE SET prediction = EXCLUDED.prediction
           RETURNING ${KEY}, prediction, created_at`,
          [input.batch_id, input.example_key, input.provider, input.repetition, JSON.stringify(input.prediction)],
        );
        return parseOrThrow(EpPredictionRowSchema, onlyRow(rows, operation), 'store: ep_predictions row');
      } catch (err) {
        throw failure(sql, operation, err, `expected a row in ep_examples for example_key ${JSON.stringify(input.example_key)}, found none (saveEpExample first)`);
      }
    },

    async getEpPredictions(batchId, exampleKey) {
      return storeOperation(sql, `getEpPredictions(${JSON.stringify(batchId)}, ${JSON.stringify(exampleKey)})`, async () => {
        const rows = await sql.query(
          `SELECT ${KEY}, prediction, created_at FROM ep_predictions
           WHERE batch_id = $1 AND example_key = $2 ORDER BY provider, repetition`,
          [batchId, exampleKey],
        );
        return rows.map((row) => parseOrThrow(EpPredictionRowSchema, row, 'store: ep_predictions row'));
      });
    },

    async saveEpScore(score) {
      const input = parseOrThrow(EpScoreRowInputSchema, score, 'saveEpScore(score)');
      const operation = `saveEpScore(${describeKey(input)})`;
      try {
        const rows = await sql.query(
          `INSERT INTO ep_scores (${KEY}, score) VALUES ($1::text, $2::text, $3::text, $4::integer, $5::jsonb)
           ON CONFLICT (${KEY}) DO UPDATE SET score = EXCLUDED.score
           RETURNING ${KEY}, score, created_at`,
          [input.batch_id, input.example_key, input.provider, input.repetition, JSON.stringify(input.score)],
        );
        return parseOrThrow(EpScoreRowSchema, onlyRow(rows, operation), 'store: ep_scores row');
      } catch (err) {
        throw failure(sql, operation, err, 'expected a row in ep_predictions with the same key, found none (saveEpPrediction first)');
      }
    },

    async listEpScores(batchId) {
      return storeOperation(sql, `listEpScores(${JSON.stringify(batchId)})`, async () => {
        const rows = await sql.query(
          `SELECT ${KEY}, score, created_at FROM ep_scores WHERE batch_id = $1 ORDER BY example_key, provider, repetition`,
          [batchId],
        );
        return rows.map((row) => parseOrThrow(EpScoreRowSchema, row, 'store: ep_scores row'));
      });
    },
  };
}

function describeKey(key: { batch_id: string; example_key: string; provider: string; repetition: number }): string {
  return `batch ${JSON.stringify(key.batch_id)}, example ${JSON.stringify(key.example_key)}, provider ${JSON.stringify(key.provider)}, repetition ${key.repetition}`;
}

function failure(sql: SqlExecutor, operation: string, err: unknown, missingParent: string): Error {
  if (err instanceof StoreError || err instanceof FormatError) return err;
  if (isForeignKeyViolation(err)) return new StoreError(`store: ${operation} failed: ${missingParent}`, { cause: err });
  return storeFailure(sql, operation, err);
}
